import { type Query, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, postMultipart, type UploadProgress } from './client';
import { orgApiPath } from './queries';
import type { AutoCreateStatus, DocumentList, DocumentState, DocumentSummary, DocumentText, UploadedDocument } from './types';

/** How often pages re-read documents whose text is still being extracted. */
const pendingPollMs = 2000;

export const documentsPageSize = 25;

export interface DocumentListParams {
  skip: number;
  nameSearch: string;
  tagIds: string[];
  /** Only documents whose auto-create is in this state; null: all. */
  autoCreateStatus: AutoCreateStatus | null;
  /** Only documents with an extracted field to review (a citation under the server's threshold). */
  needsReview?: boolean;
}

export function isTextPending(state: DocumentState): boolean {
  return state === 'uploaded' || state === 'ocr_processing';
}

/** The document's prompts are running. */
export function isExtractionPending(state: DocumentState): boolean {
  return state === 'llm_processing';
}

/** The agent has yet to propose a schema and a prompt for the document. */
export function isAutoCreatePending(status: AutoCreateStatus | undefined): boolean {
  return status === 'pending' || status === 'running';
}

const isWorking = (state: DocumentState) => isTextPending(state) || isExtractionPending(state);

/** Its text, its prompts or its auto-create are under way: worth reading again soon. */
const isBusy = (document: DocumentSummary) => isWorking(document.state) || isAutoCreatePending(document.auto_create_status);

/** Every state after a completed text extraction keeps the text, whatever happened to the LLM steps. */
export function hasText(state: DocumentState): boolean {
  return state === 'ocr_completed' || state.startsWith('llm_');
}

export function documentsQueryKey(orgId: string) {
  return ['orgs', orgId, 'documents'] as const;
}

export function documentDetailQueryKey(orgId: string, documentId: string) {
  return [...documentsQueryKey(orgId), 'detail', documentId] as const;
}

function documentTextQueryKey(orgId: string, documentId: string) {
  return [...documentsQueryKey(orgId), 'text', documentId] as const;
}

export function documentPath(orgId: string, documentId: string): string {
  return `${orgApiPath(orgId)}/documents/${encodeURIComponent(documentId)}`;
}

export function documentFileUrl(orgId: string, documentId: string): string {
  return `${documentPath(orgId, documentId)}/file`;
}

function listSearchParams({ skip, nameSearch, tagIds, autoCreateStatus, needsReview }: DocumentListParams): URLSearchParams {
  const search = new URLSearchParams({ skip: String(skip), limit: String(documentsPageSize) });
  if (nameSearch !== '') {
    search.set('name_search', nameSearch);
  }
  if (tagIds.length > 0) {
    search.set('tag_ids', tagIds.join(','));
  }
  if (autoCreateStatus !== null) {
    search.set('auto_create_status', autoCreateStatus);
  }
  if (needsReview) {
    search.set('needs_review', 'true');
  }
  return search;
}

export function useDocumentsQuery(orgId: string, params: DocumentListParams) {
  return useQuery({
    queryKey: [...documentsQueryKey(orgId), 'list', params],
    queryFn: () => getJson<DocumentList>(`${orgApiPath(orgId)}/documents?${listSearchParams(params)}`),
    // Keeps the current page on screen while the next one or a new search loads.
    placeholderData: (previous) => previous,
    refetchInterval: (query: Query<DocumentList>) => (query.state.data?.documents.some(isBusy) ? pendingPollMs : false),
  });
}

/**
 * One document, polled while its text, its prompts or its auto-create are in progress. `awaitingExtraction`: its
 * text is ready and a model is configured, so its prompts are about to start.
 */
export function useDocumentQuery(orgId: string, documentId: string, awaitingExtraction = false) {
  return useQuery({
    queryKey: documentDetailQueryKey(orgId, documentId),
    queryFn: () => getJson<DocumentSummary>(`${documentPath(orgId, documentId)}?include_content=false`),
    refetchInterval: (query: Query<DocumentSummary>) => {
      const document = query.state.data;
      if (document === undefined) return false;
      return isBusy(document) || (awaitingExtraction && document.state === 'ocr_completed') ? pendingPollMs : false;
    },
  });
}

/** Only for a document whose state says the text is there: the server refuses it before. */
export function useDocumentTextQuery(orgId: string, documentId: string) {
  return useQuery({
    queryKey: documentTextQueryKey(orgId, documentId),
    queryFn: () => getJson<DocumentText>(`${orgApiPath(orgId)}/ocr/download/json/${encodeURIComponent(documentId)}`),
  });
}

/**
 * The form fields of an upload: `auto_create` (the agent proposes a schema and a prompt once the
 * text is ready), `dataset_id` (the file becomes a table of that dataset), ...
 */
export type UploadFields = Record<string, string>;

/** Uploads one file as its own request, so that each file reports its own progress and error. */
export async function uploadDocument(
  orgId: string,
  file: File,
  fields: UploadFields,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
): Promise<UploadedDocument> {
  const form = new FormData();
  // The server requires the fields before the file they apply to.
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, value);
  }
  form.append('file', file, file.name);
  const { documents } = await postMultipart<{ documents: UploadedDocument[] }>(
    `${orgApiPath(orgId)}/documents/multipart`,
    form,
    onProgress,
    signal,
  );
  const [uploaded] = documents;
  if (!uploaded) {
    throw new Error(`The server stored nothing for “${file.name}”. Try uploading it again.`);
  }
  return uploaded;
}

export function useRefreshDocuments(orgId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: documentsQueryKey(orgId) });
}

export function useDeleteDocumentMutation(orgId: string) {
  const refresh = useRefreshDocuments(orgId);
  return useMutation({
    mutationFn: (documentId: string) => deleteNoContent(documentPath(orgId, documentId)),
    onSuccess: refresh,
  });
}

export function useRerunTextExtractionMutation(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshDocuments(orgId);
  return useMutation({
    mutationFn: () =>
      postJson<{ document_id: string; state: DocumentState }>(`${orgApiPath(orgId)}/ocr/run/${encodeURIComponent(documentId)}`),
    onSuccess: ({ state }) => {
      // Showing the new state at once takes the old text off the page, and forgetting that
      // text makes the page load the new one, even when extraction ends before the next poll.
      queryClient.setQueryData<DocumentSummary>(documentDetailQueryKey(orgId, documentId), (document) =>
        document ? { ...document, state, state_error: null, progress: null } : document,
      );
      queryClient.removeQueries({ queryKey: documentTextQueryKey(orgId, documentId) });
      return refresh();
    },
  });
}
