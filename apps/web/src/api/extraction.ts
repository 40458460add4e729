import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, postJson, putJson } from './client';
import { documentDetailQueryKey, documentsQueryKey } from './documents';
import type { ListedPrompt, PromptList } from './prompts';
import { orgApiPath } from './queries';

/** A box on a page: PDF points from the page's top-left corner, or pixels for an image. */
export interface CitationBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How a value was found in the document's text. */
export type CitationMatch = 'exact' | 'normalized' | 'fuzzy' | 'not_found';

/** Where one leaf value of a result was read from in the document. */
export interface Citation {
  /** The leaf's path in `updated_llm_result`: dotted, with `[i]` for array items ("line_items[2].amount"). */
  path: string;
  /** 1-based; null when the value was not found. */
  page: number | null;
  /** The matched words' boxes; none when the value was not found. */
  boxes: CitationBox[];
  /** The matched text as it is on the page; '' when not found. */
  text: string;
  match: CitationMatch;
  /** 0..1: from the match, and no more than `probability` when there is one. */
  confidence: number;
  /** How sure the model was of the value (0..1), when its provider reported token log-probabilities. */
  probability?: number;
}

/** One prompt's stored answer for a document, with a person's corrections. */
export interface ExtractionResult {
  prompt_revid: string;
  prompt_id: string;
  prompt_version: number;
  prompt_display_name: string;
  document_id: string;
  model: string;
  /** What the model answered. */
  llm_result: Record<string, unknown>;
  /** The values as corrected by people; the model's answer until someone edits it. */
  updated_llm_result: Record<string, unknown>;
  is_edited: boolean;
  is_verified: boolean;
  /** Where each leaf value is in the document (strings, numbers; not nulls, empty strings or most booleans). */
  citations: Citation[];
  /** The paths whose confidence is under the review threshold. */
  fields_to_review: string[];
  created_at: string;
  updated_at: string;
}

export interface RunResponse {
  status: 'success';
  result_id: string;
  reused: boolean;
  result: ExtractionResult;
}

export interface ResultChange {
  updated_llm_result: Record<string, unknown>;
  is_verified?: boolean;
}

/** How often the page re-reads results while the document's prompts are running. */
const runningPollMs = 2000;

export function extractionQueryKey(orgId: string, documentId: string) {
  return ['orgs', orgId, 'extraction', documentId] as const;
}

function resultsQueryKey(orgId: string, documentId: string) {
  return [...extractionQueryKey(orgId, documentId), 'results'] as const;
}

function llmPath(orgId: string, action: 'run' | 'result' | 'results', documentId: string, promptRevid?: string): string {
  const path = `${orgApiPath(orgId)}/llm/${action}/${encodeURIComponent(documentId)}`;
  return promptRevid === undefined ? path : `${path}?${new URLSearchParams({ prompt_revid: promptRevid })}`;
}

/** The newest result of each prompt, the default prompt's first; polled while `polling`. */
export function useExtractionResultsQuery(orgId: string, documentId: string, polling: boolean) {
  return useQuery({
    queryKey: resultsQueryKey(orgId, documentId),
    queryFn: () => getJson<{ results: ExtractionResult[] }>(llmPath(orgId, 'results', documentId)),
    select: ({ results }) => results,
    refetchInterval: polling ? runningPollMs : false,
  });
}

/** The prompts that run on the document: the default prompt and those sharing one of its tags. */
export function useDocumentPromptsQuery(orgId: string, documentId: string) {
  return useQuery({
    queryKey: [...extractionQueryKey(orgId, documentId), 'prompts'],
    queryFn: () =>
      getJson<PromptList>(`${orgApiPath(orgId)}/prompts?${new URLSearchParams({ document_id: documentId, limit: '100' })}`),
    select: ({ prompts }): ListedPrompt[] => prompts,
  });
}

/** Replaces the prompt's result in the cached list, or adds it. */
function useStoreResult(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  return (result: ExtractionResult) =>
    queryClient.setQueryData<{ results: ExtractionResult[] }>(resultsQueryKey(orgId, documentId), (data) => {
      if (!data) return data;
      const others = data.results.filter((candidate) => candidate.prompt_id !== result.prompt_id);
      const at = data.results.findIndex((candidate) => candidate.prompt_id === result.prompt_id);
      return { results: at === -1 ? [...others, result] : data.results.map((r, i) => (i === at ? result : r)) };
    });
}

/** Runs a prompt on the document again, replacing its stored result. */
export function useRunExtractionMutation(orgId: string, documentId: string, promptRevid: string) {
  const store = useStoreResult(orgId, documentId);
  const queryClient = useQueryClient();
  return useMutation({
    onMutate: () => queryClient.cancelQueries({ queryKey: resultsQueryKey(orgId, documentId) }),
    mutationFn: () =>
      postJson<RunResponse>(
        `${llmPath(orgId, 'run', documentId)}?${new URLSearchParams({ prompt_revid: promptRevid, force: 'true' })}`,
      ),
    onSuccess: ({ result }) => store(result),
    // The run, failed or not, is the prompt's latest outcome, which decides the document's state and banner.
    onSettled: () =>
      Promise.all(
        [documentDetailQueryKey(orgId, documentId), [...documentsQueryKey(orgId), 'list']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

/** Saves corrected values, or marks the result verified; the server checks them against the prompt's schema. */
export function useUpdateResultMutation(orgId: string, documentId: string, promptRevid: string) {
  const store = useStoreResult(orgId, documentId);
  const queryClient = useQueryClient();
  return useMutation({
    // A poll already under way would bring back the old result after ours is stored.
    onMutate: () => queryClient.cancelQueries({ queryKey: resultsQueryKey(orgId, documentId) }),
    mutationFn: (change: ResultChange) =>
      putJson<ExtractionResult>(llmPath(orgId, 'result', documentId, promptRevid), { body: change }),
    onSuccess: store,
  });
}

/** Re-reads the document's prompts and results, e.g. when its state says the prompts have run. */
export function useRefreshExtraction(orgId: string, documentId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: extractionQueryKey(orgId, documentId) });
}
