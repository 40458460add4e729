import { compareCells } from './columnValues';

export interface ResultSort {
  column: number;
  direction: 'ascending' | 'descending';
}

/** The next sort after a click on a column's header: ascending first, then the other way. */
export function nextSort(current: ResultSort | null, column: number): ResultSort {
  if (current?.column === column) {
    return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  }
  return { column, direction: 'ascending' };
}

/** The rows in that order (a copy); empty cells last either way, ties in the result's own order. */
export function sortRows(rows: unknown[][], sort: ResultSort | null): unknown[][] {
  if (sort === null) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[sort.column];
      const y = b.row[sort.column];
      const xEmpty = x === null || x === undefined;
      const yEmpty = y === null || y === undefined;
      if (xEmpty || yEmpty) return xEmpty === yEmpty ? a.index - b.index : xEmpty ? 1 : -1;
      return sign * compareCells(x, y) || a.index - b.index;
    })
    .map(({ row }) => row);
}
