import type { DocumentState } from '../api/types';
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

interface DocumentStateBadgeProps {
  state: DocumentState;
  error: string | null;
}

/** The document's processing state in words, with the reason underneath when it failed. */
export function DocumentStateBadge({ state, error }: DocumentStateBadgeProps) {
  const { label, tone } = stateDisplay[state];
  return (
    <div title={error ?? undefined} className="max-w-64">
      <StatusPill tone={tone}>{label}</StatusPill>
      {error && <p className="mt-1 line-clamp-2 text-xs text-red-700">{error}</p>}
    </div>
  );
}
