import { useQueries } from '@tanstack/react-query';
import { fetchTableRows, rowsPageSize, tableRowsQueryKey } from '../api/datasets';
import { useDebouncedValue } from '../lib/useDebouncedValue';

/**
 * How long the view must rest before its pages are fetched: dragging the scrollbar across a
 * million rows passes thousands of pages, and each would be a query in the organization's SQL process.
 */
const SETTLE_MS = 120;

/** Pages no longer in view are dropped this long after: scrolling back a little shows them at once, memory stays bounded. */
const KEEP_PAGE_MS = 60_000;

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * The rows from `start` to `end` of a table, read page by page (`rowsPageSize` rows) from the
 * server once the view rests: the pages in view, and one on each side so that scrolling on
 * finds them ready. A row whose page has not arrived is undefined.
 */
export function useTableRows(
  orgId: string,
  dataset: { datasetId: string; tableName: string; rowCount: number },
  start: number,
  end: number,
) {
  const { datasetId, tableName, rowCount } = dataset;
  const lastPage = Math.max(0, Math.ceil(rowCount / rowsPageSize) - 1);
  const firstInView = Math.floor(start / rowsPageSize);
  const lastInView = Math.floor(Math.max(start, end - 1) / rowsPageSize);
  const settled = useDebouncedValue(`${firstInView}:${lastInView}`, SETTLE_MS);
  const [settledFirst = 0, settledLast = 0] = settled.split(':').map(Number);
  const fetchFrom = Math.max(0, settledFirst - 1);
  const fetchTo = Math.min(lastPage, settledLast + 1);
  // Pages in view that are not to be fetched yet still show what the cache holds of them.
  const pages = [...new Set([...range(firstInView, lastInView), ...range(fetchFrom, fetchTo)])];

  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: tableRowsQueryKey(orgId, datasetId, tableName, page),
      queryFn: () => fetchTableRows(orgId, datasetId, tableName, page),
      enabled: rowCount > 0 && page >= fetchFrom && page <= fetchTo,
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: KEEP_PAGE_MS,
    })),
  });

  const byPage = new Map(pages.map((page, i) => [page, results[i]]));
  const failed = results.find((result) => result.isError);
  return {
    rowAt: (index: number): unknown[] | undefined =>
      byPage.get(Math.floor(index / rowsPageSize))?.data?.rows[index % rowsPageSize],
    error: failed?.error ?? null,
    retry: () => {
      for (const result of results) if (result.isError) void result.refetch();
    },
  };
}
