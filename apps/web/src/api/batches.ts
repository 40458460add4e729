import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, postJson } from './client';
import { orgApiPath } from './queries';

export type BatchItemStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A prompt revision run over many documents, a job each. */
export interface Batch {
  batch_id: string;
  prompt_id: string;
  prompt_revid: string;
  selection: { document_ids?: string[]; tag_ids?: string[]; name_search?: string };
  status: 'running' | 'finished' | 'cancelled';
  counts: Record<BatchItemStatus, number> & { total: number };
  created_by: string;
  created_at: string;
  finished_at: string | null;
}

export interface BatchDocument {
  document_id: string;
  document_name: string;
  status: BatchItemStatus;
  error: string | null;
  attempts: number;
  updated_at: string;
}

/** How the documents of a new batch are chosen: by tags (all of them), by a text in their name, or one by one. */
export type BatchChoice = { tag_ids: string[] } | { name_search: string } | { document_ids: string[] };

/** What starts a batch: the documents, and the revision to run (the prompt's latest when absent). */
export type BatchStart = BatchChoice & { prompt_revid?: string };

const batchesKey = (orgId: string, promptId: string) => ['orgs', orgId, 'prompts', promptId, 'batches'] as const;
const batchPath = (orgId: string, batchId: string) => `${orgApiPath(orgId)}/batches/${encodeURIComponent(batchId)}`;

/** The prompt's batches, newest first, read again every second while one runs. */
export function useBatchesQuery(orgId: string, promptId: string) {
  return useQuery({
    queryKey: batchesKey(orgId, promptId),
    queryFn: () => getJson<{ batches: Batch[] }>(`${orgApiPath(orgId)}/prompts/${encodeURIComponent(promptId)}/batches`),
    refetchInterval: (query) => (query.state.data?.batches.some((b) => b.status === 'running') ? 1000 : false),
  });
}

/** A batch's failed documents with the reason, read again with the batch. */
export function useFailedDocumentsQuery(orgId: string, batch: Batch) {
  return useQuery({
    queryKey: ['orgs', orgId, 'batches', batch.batch_id, 'failed', batch.counts.failed, batch.status],
    queryFn: () =>
      getJson<{ documents: BatchDocument[]; total_count: number }>(
        `${batchPath(orgId, batch.batch_id)}/documents?status=failed&limit=20`,
      ),
    enabled: batch.counts.failed > 0,
  });
}

/** An action on a batch; its prompt's batches (and the batch itself) are read again after it. */
function useBatchAction<Input>(orgId: string, send: (input: Input) => Promise<Batch>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (batch) => queryClient.invalidateQueries({ queryKey: batchesKey(orgId, batch.prompt_id) }),
  });
}

/** Starts a batch of a prompt: its jobs run on the server, whoever watches. */
export function useStartBatchMutation(orgId: string) {
  return useBatchAction(orgId, ({ promptId, ...start }: BatchStart & { promptId: string }) =>
    postJson<Batch>(`${orgApiPath(orgId)}/prompts/${encodeURIComponent(promptId)}/batches`, { body: start }),
  );
}

/** One batch of a prompt, read again every second while it runs (and when it is cancelled or retried). */
export function useBatchQuery(orgId: string, promptId: string, batchId: string) {
  return useQuery({
    queryKey: [...batchesKey(orgId, promptId), batchId],
    queryFn: () => getJson<Batch>(batchPath(orgId, batchId)),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
}

export function useCancelBatchMutation(orgId: string) {
  return useBatchAction(orgId, (batchId: string) => postJson<Batch>(`${batchPath(orgId, batchId)}/cancel`));
}

export function useRetryBatchMutation(orgId: string) {
  return useBatchAction(orgId, (batchId: string) => postJson<Batch>(`${batchPath(orgId, batchId)}/retry`));
}
