import type { DocumentState } from '../api/types';

type Tone = 'neutral' | 'working' | 'success' | 'failure';

const stateDisplay: Record<DocumentState, { label: string; tone: Tone }> = {
  uploaded: { label: 'Uploaded', tone: 'neutral' },
  ocr_processing: { label: 'Extracting text', tone: 'working' },
  ocr_completed: { label: 'Text ready', tone: 'success' },
  ocr_failed: { label: 'Failed', tone: 'failure' },
  llm_processing: { label: 'Extracting data', tone: 'working' },
  llm_completed: { label: 'Data extracted', tone: 'success' },
  llm_failed: { label: 'Data extraction failed', tone: 'failure' },
};

const toneClasses: Record<Tone, string> = {
  neutral: 'bg-slate-100 text-slate-700',
  working: 'bg-sky-50 text-sky-800',
  success: 'bg-emerald-50 text-emerald-700',
  failure: 'bg-red-50 text-red-700',
};

interface DocumentStateBadgeProps {
  state: DocumentState;
  error: string | null;
}

/** The document's processing state in words, with the reason underneath when it failed. */
export function DocumentStateBadge({ state, error }: DocumentStateBadgeProps) {
  const { label, tone } = stateDisplay[state];
  return (
    <div title={error ?? undefined} className="max-w-64">
      <span
        className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${toneClasses[tone]}`}
      >
        {tone === 'working' && <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />}
        {label}
      </span>
      {error && <p className="mt-1 line-clamp-2 text-xs text-red-700">{error}</p>}
    </div>
  );
}
