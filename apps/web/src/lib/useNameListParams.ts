import { useSearchParams } from 'react-router';
import type { NameListParams } from '../api/pagedList';

/** A list offset from the URL; anything but a positive integer is the first page. */
export function parseSkip(value: string | null): number {
  const skip = Number.parseInt(value ?? '', 10);
  return Number.isFinite(skip) && skip > 0 ? skip : 0;
}

/**
 * The page and name search of a list, kept in the URL so that a reload, a shared link or
 * the back button shows the same list.
 */
export function useNameListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params: NameListParams = {
    skip: parseSkip(searchParams.get('skip')),
    nameSearch: searchParams.get('name') ?? '',
  };

  function update(changes: Partial<NameListParams>, options: { replace?: boolean } = {}) {
    const next = { ...params, ...changes };
    // A different search starts again from its first page.
    if (changes.nameSearch !== undefined) {
      next.skip = changes.skip ?? 0;
    }
    const search = new URLSearchParams();
    if (next.skip > 0) {
      search.set('skip', String(next.skip));
    }
    if (next.nameSearch !== '') {
      search.set('name', next.nameSearch);
    }
    setSearchParams(search, { replace: options.replace ?? false });
  }

  return { params, update };
}
