import type { AutoCreateStatus } from '../api/types';
import { StatusPill, type StatusTone } from '../components/StatusPill';

export const autoCreateLabels: Record<AutoCreateStatus, string> = {
  pending: 'Waiting',
  running: 'Agent working',
  proposed: 'Needs review',
  failed: 'Failed',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

const tones: Record<AutoCreateStatus, StatusTone> = {
  pending: 'working',
  running: 'working',
  proposed: 'review',
  failed: 'failure',
  accepted: 'success',
  rejected: 'neutral',
};

interface AutoCreateBadgeProps {
  status: AutoCreateStatus | undefined;
  error: string | undefined;
}

/** Where the agent's proposal of a schema and a prompt stands; a dash for documents uploaded without it. */
export function AutoCreateBadge({ status, error }: AutoCreateBadgeProps) {
  if (status === undefined) return <span className="text-slate-400">—</span>;
  return (
    <StatusPill tone={tones[status]} title={error}>
      <span className="sr-only">Auto-create: </span>
      {autoCreateLabels[status]}
    </StatusPill>
  );
}
