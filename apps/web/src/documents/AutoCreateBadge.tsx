import type { AutoCreateStatus } from '../api/types';

type Tone = 'working' | 'review' | 'success' | 'failure' | 'neutral';

export const autoCreateLabels: Record<AutoCreateStatus, string> = {
  pending: 'Waiting',
  running: 'Agent working',
  proposed: 'Needs review',
  failed: 'Failed',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

const tones: Record<AutoCreateStatus, Tone> = {
  pending: 'working',
  running: 'working',
  proposed: 'review',
  failed: 'failure',
  accepted: 'success',
  rejected: 'neutral',
};

const toneClasses: Record<Tone, string> = {
  neutral: 'bg-slate-100 text-slate-700',
  working: 'bg-sky-50 text-sky-800',
  review: 'bg-amber-50 text-amber-800',
  success: 'bg-emerald-50 text-emerald-700',
  failure: 'bg-red-50 text-red-700',
};

interface AutoCreateBadgeProps {
  status: AutoCreateStatus | undefined;
  error: string | undefined;
}

/** Where the agent's proposal of a schema and a prompt stands; a dash for documents uploaded without it. */
export function AutoCreateBadge({ status, error }: AutoCreateBadgeProps) {
  if (status === undefined) return <span className="text-slate-400">—</span>;
  const tone = tones[status];
  return (
    <span
      title={error}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${toneClasses[tone]}`}
    >
      {tone === 'working' && <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />}
      <span className="sr-only">Auto-create: </span>
      {autoCreateLabels[status]}
    </span>
  );
}
