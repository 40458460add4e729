import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type StoredMessage, threadsQueryKey } from './chat';
import { getJson, postJson } from './client';
import { documentDetailQueryKey, documentPath, documentsQueryKey } from './documents';
import { extractionQueryKey } from './extraction';
import { promptsQueryKey } from './prompts';
import { schemasQueryKey } from './schemas';
import type { AutoCreateStatus, DocumentSummary } from './types';

/** The headless run's conversation, as the server replays it: a thread nobody can write to. */
export interface AutoCreateLog {
  turn_id: string | null;
  title: string;
  read_only: true;
  status: AutoCreateStatus | null;
  error: string | null;
  model: string | null;
  messages: StoredMessage[];
  extraction: Record<string, unknown>;
  done_at: string | null;
}

function autoCreatePath(orgId: string, documentId: string, action: 'start' | 'accept' | 'reject' | 'refine' | 'log'): string {
  return `${documentPath(orgId, documentId)}/auto-create/${action}`;
}

/**
 * Everything a review changes: the document's status, the prompts and schemas lists (the proposal
 * becomes a normal prompt, or goes away), the document's results and its conversations (refine adds one).
 */
function useReviewed(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [
        documentsQueryKey(orgId),
        promptsQueryKey(orgId),
        schemasQueryKey(orgId),
        extractionQueryKey(orgId, documentId),
        threadsQueryKey(orgId, { kind: 'document', id: documentId }),
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
}

/**
 * Start a run (again), or accept or reject the proposal; the answer is the document with its new
 * status, shown at once (a started run is then followed until it ends).
 */
export function useAutoCreateDecisionMutation(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  const reviewed = useReviewed(orgId, documentId);
  return useMutation({
    mutationFn: (decision: 'start' | 'accept' | 'reject') =>
      postJson<DocumentSummary>(autoCreatePath(orgId, documentId, decision), { body: {} }),
    onSuccess: (document) => {
      queryClient.setQueryData<DocumentSummary>(documentDetailQueryKey(orgId, documentId), (current) =>
        current ? { ...current, ...document } : document,
      );
      return reviewed();
    },
  });
}

/** Opens a chat thread that continues the headless run, its working state the proposal. */
export function useRefineAutoCreateMutation(orgId: string, documentId: string) {
  const reviewed = useReviewed(orgId, documentId);
  return useMutation({
    mutationFn: async () =>
      (await postJson<{ thread_id: string }>(autoCreatePath(orgId, documentId, 'refine'), { body: {} })).thread_id,
    onSuccess: () => reviewed(),
  });
}

/** The headless run's log, read when the person asks for it. */
export function useAutoCreateLogQuery(orgId: string, documentId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'documents', 'auto-create-log', documentId],
    queryFn: () => getJson<AutoCreateLog>(autoCreatePath(orgId, documentId, 'log')),
  });
}
