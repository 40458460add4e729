import type { DocumentProgress, DocumentState } from '../api/types';
import { StatusPill, type StatusTone } from '../components/StatusPill';

const stateDisplay: Record<DocumentState, { label: string; tone: StatusTone }> = {
  uploaded: { label: 'Uploaded', tone: 'neutral' },
  ocr_processing: { label: 'Extracting text', tone: 'working' },
  ocr_completed: { label: 'Text ready', tone: 'success' },
  ocr_failed: { label: 'Failed', tone: 'failure' },
  llm_processing: { label: 'Extracting data', tone: 'working' },
  llm_completed: { label: 'Data extracted', tone: 'success' },
  llm_failed: { label: 'Data extraction failed', tone: 'failure' },
};

const countedUnit: Record<DocumentProgress['stage'], [one: string, many: string]> = {
  text: ['page', 'pages'],
  extraction: ['prompt', 'prompts'],
};

/** "3 of 12 pages", with a thin bar, kept on the pill's one line. */
function ProgressCount({ progress }: { progress: DocumentProgress }) {
  const { stage, done, total } = progress;
  const [one, many] = countedUnit[stage];
  const count = `${done} of ${total} ${total === 1 ? one : many}`;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <>
      <span aria-hidden="true">·</span>
      <span className="tabular-nums">{count}</span>
      <span
        role="progressbar"
        aria-label={count}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        className="h-1 w-8 overflow-hidden rounded-full bg-sky-100"
      >
        <span className="block h-full rounded-full bg-sky-500 transition-[width]" style={{ width: `${percent}%` }} />
      </span>
    </>
  );
}

interface DocumentStateBadgeProps {
  state: DocumentState;
  error: string | null;
  /** How far the running stage has got; the server sets it only while one runs. */
  progress: DocumentProgress | null;
}

/** The document's processing state in words, with how far it has got while it runs, and the reason underneath when it failed. */
export function DocumentStateBadge({ state, error, progress }: DocumentStateBadgeProps) {
  const { label, tone } = stateDisplay[state];
  return (
    <div title={error ?? undefined}>
      <StatusPill tone={tone}>
        {label}
        {progress && <ProgressCount progress={progress} />}
      </StatusPill>
      {error && <p className="mt-1 line-clamp-2 max-w-64 text-xs text-red-700">{error}</p>}
    </div>
  );
}
