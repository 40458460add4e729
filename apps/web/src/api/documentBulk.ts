import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, putJson } from './client';
import { documentPath, documentsQueryKey } from './documents';
import type { ExtractionResult } from './extraction';
import { orgApiPath } from './queries';
import type { DocumentSummary } from './types';

/** What one action did to each chosen document: the ones that failed say why. */
export interface BulkOutcome {
  done: number;
  failed: Array<{ name: string; error: string }>;
}

/** Progress of an action over several documents, for a "3 of 10" line. */
export type BulkProgress = (done: number, total: number) => void;

/**
 * Runs `action` on each document in turn, collecting failures instead of stopping. (Running a
 * prompt on them is a batch on the server instead: model calls outlive the page.)
 */
async function eachDocument(
  documents: DocumentSummary[],
  action: (document: DocumentSummary) => Promise<unknown>,
  progress: BulkProgress,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: 0, failed: [] };
  for (const [index, document] of documents.entries()) {
    try {
      await action(document);
      outcome.done += 1;
    } catch (error) {
      outcome.failed.push({ name: document.document_name, error: (error as Error).message });
    }
    progress(index + 1, documents.length);
  }
  return outcome;
}

/** A document's tags, as `PUT .../documents/{id}` takes them. */
export function putDocumentTags(orgId: string, documentId: string, tagIds: string[]) {
  return putJson<DocumentSummary>(documentPath(orgId, documentId), { body: { tag_ids: tagIds } });
}

export type BulkAction = { kind: 'addTag'; tagId: string } | { kind: 'removeTag'; tagId: string } | { kind: 'delete' };

/** One action over the chosen documents; the list is read again afterwards, whatever happened. */
export function useBulkActionMutation(orgId: string, progress: BulkProgress) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, documents }: { action: BulkAction; documents: DocumentSummary[] }) =>
      eachDocument(
        documents,
        (document) => {
          switch (action.kind) {
            case 'addTag':
              if (document.tag_ids.includes(action.tagId)) return Promise.resolve();
              return putDocumentTags(orgId, document.id, [...document.tag_ids, action.tagId]);
            case 'removeTag':
              if (!document.tag_ids.includes(action.tagId)) return Promise.resolve();
              return putDocumentTags(
                orgId,
                document.id,
                document.tag_ids.filter((id) => id !== action.tagId),
              );
            case 'delete':
              return deleteNoContent(documentPath(orgId, document.id));
          }
        },
        progress,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: documentsQueryKey(orgId) }),
  });
}

/** The chosen documents with their extraction results, as one JSON file the browser downloads. */
export async function exportDocuments(orgId: string, documents: DocumentSummary[]): Promise<Blob> {
  const exported = [];
  for (const document of documents) {
    const { results } = await getJson<{ results: ExtractionResult[] }>(
      `${orgApiPath(orgId)}/llm/results/${encodeURIComponent(document.id)}`,
    );
    exported.push({
      document_id: document.id,
      document_name: document.document_name,
      tag_ids: document.tag_ids,
      metadata: document.metadata,
      state: document.state,
      results: results.map((r) => ({
        prompt_name: r.prompt_display_name,
        prompt_revid: r.prompt_revid,
        values: r.updated_llm_result,
        is_edited: r.is_edited,
        is_verified: r.is_verified,
      })),
    });
  }
  return new Blob([JSON.stringify({ documents: exported }, null, 2)], { type: 'application/json' });
}
