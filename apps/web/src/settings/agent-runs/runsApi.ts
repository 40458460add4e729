import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getJson } from '../../api/client';
import { orgApiPath } from '../../api/queries';

export type CallDecision = 'allowed' | 'approved' | 'rejected' | 'denied' | 'stopped';

/** One tool call as the audit keeps it. */
export interface AuditedCall {
  round_index: number;
  call_id: string;
  name: string;
  arguments: unknown;
  decision: CallDecision;
  /** Why it was decided so. */
  reason: string;
  /** The permission rule that decided it, when one did. */
  rule_id?: string;
  success: boolean;
  output?: unknown;
  error?: string;
  started_at: string;
  duration_ms: number;
}

export interface RunUsage {
  input_tokens?: number;
  output_tokens?: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
  cost_usd?: number | null;
}

export interface AgentRun {
  id: string;
  user_id: string | null;
  user_email: string | null;
  subject: { kind: string; id: string; name: string | null };
  model: string;
  status: string;
  tool_calls: AuditedCall[];
  usage: RunUsage;
  created_at: string;
  updated_at: string;
}

export const RUNS_PAGE_SIZE = 20;

const runsPath = (orgId: string) => `${orgApiPath(orgId)}/agent/runs`;

/** Admins only: the server answers 403 to others. */
export function useRunsQuery(orgId: string, skip: number) {
  return useQuery({
    queryKey: ['orgs', orgId, 'agent-runs', skip],
    queryFn: () => getJson<{ runs: AgentRun[]; total_count: number }>(`${runsPath(orgId)}?skip=${skip}&limit=${RUNS_PAGE_SIZE}`),
    placeholderData: keepPreviousData,
  });
}

export function useRunQuery(orgId: string, runId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'agent-runs', 'run', runId],
    queryFn: () => getJson<AgentRun>(`${runsPath(orgId)}/${encodeURIComponent(runId)}`),
  });
}
