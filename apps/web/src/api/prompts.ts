import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { type NameListParams, nameListSearch, pickerLimit } from './pagedList';
import { orgApiPath } from './queries';

/** One version of a prompt. */
export interface Prompt {
  prompt_revid: string;
  prompt_id: string;
  prompt_version: number;
  name: string;
  content: string;
  schema_id: string | null;
  schema_version: number | null;
  tag_ids: string[];
  /** Null: the organization's default model. */
  model: string | null;
  created_at: string;
  created_by: string;
}

/** A prompt as lists give it: with whether it is an auto-create proposal awaiting review. */
export interface ListedPrompt extends Prompt {
  /** "Auto-created, pending review": it runs on no other document until accepted. Absent from versions lists. */
  auto_create_pending_review?: boolean;
  /** The document whose auto-create proposed it, while pending. */
  auto_create_document_id?: string | null;
}

export interface PromptList {
  prompts: ListedPrompt[];
  total_count: number;
  skip: number;
}

/** The body of a create or an edit. */
export interface PromptFields {
  name: string;
  content: string;
  schema_id: string | null;
  /** Null with a schema: its latest version when saved. */
  schema_version: number | null;
  /** Null: the organization's default model. */
  model: string | null;
  tag_ids: string[];
}

export function promptsQueryKey(orgId: string) {
  return ['orgs', orgId, 'prompts'] as const;
}

function promptsPath(orgId: string): string {
  return `${orgApiPath(orgId)}/prompts`;
}

function promptPath(orgId: string, promptId: string): string {
  return `${promptsPath(orgId)}/${encodeURIComponent(promptId)}`;
}

export type ResultsExportFormat = 'csv' | 'xlsx' | 'json';

/** The download of a prompt's results over its documents, a row per document (the session cookie authenticates it). */
export function promptResultsExportUrl(orgId: string, promptId: string, format: ResultsExportFormat): string {
  return `${promptPath(orgId, promptId)}/results/export?format=${format}`;
}

/** One page of the latest version of each prompt. */
export function usePromptsQuery(orgId: string, params: NameListParams) {
  return useQuery({
    queryKey: [...promptsQueryKey(orgId), 'page', params],
    queryFn: () => getJson<PromptList>(`${promptsPath(orgId)}?${nameListSearch(params)}`),
    placeholderData: (previous) => previous,
  });
}

/** The latest version of every prompt (the first 100 by name), for pickers. */
export function usePromptChoicesQuery(orgId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: [...promptsQueryKey(orgId), 'choices'],
    queryFn: () => getJson<PromptList>(`${promptsPath(orgId)}?limit=${pickerLimit}`),
    select: ({ prompts }) => prompts,
    enabled,
  });
}

/** Every version of a prompt, newest first. */
export function usePromptVersionsQuery(orgId: string, promptId: string) {
  return useQuery({
    queryKey: [...promptsQueryKey(orgId), 'versions', promptId],
    queryFn: () => getJson<PromptList>(`${promptPath(orgId, promptId)}/versions`),
    select: ({ prompts }) => prompts,
  });
}

/** Creates a prompt when promptId is null, else saves a new version of it (unchanged input returns the current one). */
export function useSavePromptMutation(orgId: string, promptId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: PromptFields) =>
      promptId === null
        ? postJson<Prompt>(promptsPath(orgId), { body: fields })
        : putJson<Prompt>(promptPath(orgId, promptId), { body: fields }),
    // Returned so that saving stays pending until the lists and versions show the result.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: promptsQueryKey(orgId) }),
  });
}

/** Whether a cached query is the versions of the given prompt. */
const isVersionsOf =
  (promptId: string) =>
  ({ queryKey }: { queryKey: readonly unknown[] }) =>
    queryKey[3] === 'versions' && queryKey[4] === promptId;

/**
 * The prompt_id of the organization's default prompt (`default` names its latest revision): it
 * runs on every document and cannot be deleted, so nothing offers to.
 */
export function useDefaultPromptId(orgId: string): string | undefined {
  const query = useQuery({
    queryKey: [...promptsQueryKey(orgId), 'default'],
    queryFn: () => getJson<Prompt>(`${promptsPath(orgId)}/default`),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return query.data?.prompt_id;
}

export function useDeletePromptMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (promptId: string) => deleteNoContent(promptPath(orgId, promptId)),
    // The deleted prompt's versions are gone: asking for them again, while its page is still open, would only fail.
    onSuccess: (_, promptId) =>
      queryClient.invalidateQueries({ queryKey: promptsQueryKey(orgId), predicate: (query) => !isVersionsOf(promptId)(query) }),
  });
}
