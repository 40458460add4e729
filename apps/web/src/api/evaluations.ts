import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BatchItemStatus } from './batches';
import { getJson, postJson } from './client';
import { orgApiPath } from './queries';

/** A prompt revision run over the prompt's verified documents, a job each (it is also a batch). */
export interface Evaluation {
  evaluation_id: string;
  prompt_id: string;
  prompt_revid: string;
  prompt_version: number;
  status: 'running' | 'finished' | 'cancelled';
  counts: Record<BatchItemStatus, number> & { total: number };
  /** The evaluation set: documents with a verified result of the prompt. */
  document_ids: string[];
  created_by: string;
  created_at: string;
  finished_at: string | null;
}

export interface FieldAccuracy {
  /** The field, array indexes removed (line_items[].amount). */
  path: string;
  correct: number;
  total: number;
  accuracy: number;
}

export interface EvaluationDifference {
  document_id: string;
  document_name: string;
  /** Where in the verified result, with array indexes. */
  path: string;
  /** The field, array indexes removed. */
  field: string;
  expected: unknown;
  actual: unknown;
}

/** An evaluation with its accuracy over the documents answered so far and what differs. */
export interface EvaluationReport extends Evaluation {
  accuracy: {
    /** Null while no document is answered. */
    overall: number | null;
    correct: number;
    total: number;
    documents: number;
    complete: boolean;
    fields: FieldAccuracy[];
  };
  differences: EvaluationDifference[];
}

const evaluationsKey = (orgId: string, promptId: string) => ['orgs', orgId, 'prompts', promptId, 'evaluations'] as const;
const reportKey = (orgId: string, evaluationId: string) => ['orgs', orgId, 'evaluations', evaluationId] as const;
const evaluationsPath = (orgId: string, promptId: string) =>
  `${orgApiPath(orgId)}/prompts/${encodeURIComponent(promptId)}/evaluations`;

/** The prompt's evaluations, newest first, read again every second while one runs. */
export function useEvaluationsQuery(orgId: string, promptId: string) {
  return useQuery({
    queryKey: evaluationsKey(orgId, promptId),
    queryFn: () => getJson<{ evaluations: Evaluation[] }>(evaluationsPath(orgId, promptId)),
    select: (data) => data.evaluations,
    refetchInterval: (query) => (query.state.data?.evaluations.some((e) => e.status === 'running') ? 1000 : false),
  });
}

/** The reports of several evaluations, each read again every second while it runs. */
export function useEvaluationReportsQueries(orgId: string, evaluationIds: string[]) {
  return useQueries({
    queries: evaluationIds.map((evaluationId) => ({
      queryKey: reportKey(orgId, evaluationId),
      queryFn: () => getJson<EvaluationReport>(`${orgApiPath(orgId)}/evaluations/${encodeURIComponent(evaluationId)}`),
      refetchInterval: (query: { state: { data?: EvaluationReport } }) => (query.state.data?.status === 'running' ? 1000 : false),
    })),
  });
}

/** Evaluates a revision of the prompt (its latest when none is given); 409 when no document is verified. */
export function useStartEvaluationMutation(orgId: string, promptId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (promptRevid: string | null) =>
      postJson<Evaluation>(evaluationsPath(orgId, promptId), { body: promptRevid ? { prompt_revid: promptRevid } : {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: evaluationsKey(orgId, promptId) }),
  });
}

/** Cancels a running evaluation through its batch. */
export function useCancelEvaluationMutation(orgId: string, promptId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (evaluationId: string) =>
      postJson<unknown>(`${orgApiPath(orgId)}/batches/${encodeURIComponent(evaluationId)}/cancel`),
    onSuccess: (_data, evaluationId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: evaluationsKey(orgId, promptId) }),
        queryClient.invalidateQueries({ queryKey: reportKey(orgId, evaluationId) }),
      ]),
  });
}
