import type { RunStatus } from '../api/datasets';
import { StatusPill, type StatusTone } from '../components/StatusPill';

const shown: Record<RunStatus, { tone: StatusTone; label: string }> = {
  succeeded: { tone: 'success', label: 'Succeeded' },
  failed: { tone: 'failure', label: 'Failed' },
  rejected: { tone: 'review', label: 'Refused' },
};

export function RunStatusPill({ status }: { status: RunStatus }) {
  const { tone, label } = shown[status];
  return <StatusPill tone={tone}>{label}</StatusPill>;
}
