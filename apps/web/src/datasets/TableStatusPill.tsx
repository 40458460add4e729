import type { TableStatus } from '../api/datasets';
import { StatusPill, type StatusTone } from '../components/StatusPill';

const shown: Record<TableStatus, { tone: StatusTone; label: string }> = {
  pending: { tone: 'working', label: 'Reading in' },
  ready: { tone: 'success', label: 'Ready' },
  failed: { tone: 'failure', label: 'Failed' },
};

export function TableStatusPill({ status }: { status: TableStatus }) {
  const { tone, label } = shown[status];
  return <StatusPill tone={tone}>{label}</StatusPill>;
}
