import { useNavigate } from 'react-router';
import { type DocumentListParams, useDocumentsQuery } from '../api/documents';
import { documentPagePath } from '../layout/orgPaths';
import { useShortcut } from '../shortcuts/shortcuts';

const DEFAULT_LIST: DocumentListParams = { skip: 0, nameSearch: '', tagIds: [], autoCreateStatus: null };
const storageKey = (orgId: string) => `docagent:document-list:${orgId}`;

/** The documents list the person last looked at in this tab: next and previous walk through it. */
export function rememberDocumentList(orgId: string, params: DocumentListParams): void {
  sessionStorage.setItem(storageKey(orgId), JSON.stringify(params));
}

function rememberedList(orgId: string): DocumentListParams {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey(orgId)) ?? 'null') as Partial<DocumentListParams> | null;
    if (stored === null || typeof stored !== 'object') return DEFAULT_LIST;
    return {
      skip: typeof stored.skip === 'number' ? stored.skip : 0,
      nameSearch: typeof stored.nameSearch === 'string' ? stored.nameSearch : '',
      tagIds: Array.isArray(stored.tagIds) ? stored.tagIds.filter((id) => typeof id === 'string') : [],
      autoCreateStatus: stored.autoCreateStatus ?? null,
    };
  } catch {
    return DEFAULT_LIST;
  }
}

/**
 * `j` and `k` open the next and previous document of the list the person came from (its page as
 * it was shown), or of the newest documents when they came from elsewhere.
 */
export function useAdjacentDocumentShortcuts(orgId: string, documentId: string): void {
  const navigate = useNavigate();
  const list = useDocumentsQuery(orgId, rememberedList(orgId)).data?.documents ?? [];
  const index = list.findIndex((document) => document.id === documentId);
  const next = index >= 0 ? list[index + 1] : undefined;
  const previous = index > 0 ? list[index - 1] : undefined;
  useShortcut('j', () => next && navigate(documentPagePath(orgId, next.id)), next !== undefined);
  useShortcut('k', () => previous && navigate(documentPagePath(orgId, previous.id)), previous !== undefined);
}
