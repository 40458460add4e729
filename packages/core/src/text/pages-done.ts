import type { PageProgress } from './types.ts';

/**
 * Counts a document's pages as they get their final text, telling `onPage` of each step, and of
 * none done as soon as the total is known. The returned function counts `pages` more done.
 */
export function countPagesDone(total: number, onPage: PageProgress | undefined): (pages?: number) => void {
  let done = 0;
  onPage?.(done, total);
  return (pages = 1) => {
    if (pages === 0) return;
    done += pages;
    onPage?.(done, total);
  };
}
