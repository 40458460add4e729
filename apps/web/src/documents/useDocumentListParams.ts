import { useSearchParams } from 'react-router';
import type { DocumentListParams } from '../api/documents';
import { parseAutoCreateStatus } from '../api/types';
import { parseSkip } from '../lib/useNameListParams';

/**
 * The page, name search, tag filter and auto-create filter of the documents list, kept in the URL so that a
 * reload, a shared link or the back button shows the same list.
 */
export function useDocumentListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params: DocumentListParams = {
    skip: parseSkip(searchParams.get('skip')),
    nameSearch: searchParams.get('name') ?? '',
    tagIds: (searchParams.get('tags') ?? '').split(',').filter((tagId) => tagId !== ''),
    autoCreateStatus: parseAutoCreateStatus(searchParams.get('auto_create')),
    needsReview: searchParams.get('review') === '1',
  };

  function update(changes: Partial<DocumentListParams>, options: { replace?: boolean } = {}) {
    const next = { ...params, ...changes };
    // A different search or filter starts again from its first page.
    if (
      changes.nameSearch !== undefined ||
      changes.tagIds !== undefined ||
      changes.autoCreateStatus !== undefined ||
      changes.needsReview !== undefined
    ) {
      next.skip = changes.skip ?? 0;
    }
    const search = new URLSearchParams();
    if (next.skip > 0) {
      search.set('skip', String(next.skip));
    }
    if (next.nameSearch !== '') {
      search.set('name', next.nameSearch);
    }
    if (next.tagIds.length > 0) {
      search.set('tags', next.tagIds.join(','));
    }
    if (next.autoCreateStatus !== null) {
      search.set('auto_create', next.autoCreateStatus);
    }
    if (next.needsReview) {
      search.set('review', '1');
    }
    setSearchParams(search, { replace: options.replace ?? false });
  }

  return { params, update };
}
