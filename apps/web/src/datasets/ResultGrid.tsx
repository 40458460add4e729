import type { Column } from '../api/datasets';
import { cellText, columnKind } from './columnValues';
import type { ResultSort } from './resultSort';

interface ResultGridProps {
  columns: Column[];
  /** In the order shown. */
  rows: unknown[][];
  sort: ResultSort | null;
  onSort: (column: number) => void;
}

function SortMark({ direction }: { direction: ResultSort['direction'] | null }) {
  if (direction === null)
    return (
      <span aria-hidden="true" className="text-slate-300">
        ↕
      </span>
    );
  return <span aria-hidden="true">{direction === 'ascending' ? '▲' : '▼'}</span>;
}

/** A query's result as a table whose columns sort when their header is clicked (in the browser: the rows are all here). */
export function ResultGrid({ columns, rows, sort, onSort }: ResultGridProps) {
  return (
    <div className="min-h-0 flex-1 overflow-auto rounded-md border border-slate-200 bg-white">
      <table aria-label="Query result" className="min-w-full text-left text-sm text-slate-800">
        <thead className="sticky top-0 z-10 bg-slate-50">
          <tr>
            {columns.map((column, i) => {
              const direction = sort?.column === i ? sort.direction : null;
              const isNumber = columnKind(column.type) === 'number';
              return (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: a result may name two columns alike; their place tells them apart.
                  key={i}
                  scope="col"
                  aria-sort={direction ?? 'none'}
                  className="border-b border-slate-200 p-0 font-normal whitespace-nowrap"
                >
                  <button
                    type="button"
                    onClick={() => onSort(i)}
                    title={`Sort by ${column.name}`}
                    className={`flex w-full items-center gap-1.5 px-3 py-1.5 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-500 ${isNumber ? 'justify-end' : ''}`}
                  >
                    <span className="text-left">
                      <span className="block text-xs font-semibold text-slate-800">{column.name}</span>
                      <span className="block font-mono text-[11px] text-slate-500">{column.type}</span>
                    </span>
                    <SortMark direction={direction} />
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, r) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own.
            <tr key={r} className="hover:bg-slate-50">
              {columns.map((column, i) => {
                const value = row[i] ?? null;
                const text = cellText(value);
                return (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: a result may name two columns alike; their place tells them apart.
                    key={i}
                    title={text.length > 40 ? text : undefined}
                    className={`max-w-80 truncate px-3 py-1 ${columnKind(column.type) === 'number' ? 'text-right tabular-nums' : ''}`}
                  >
                    {value === null ? <span className="text-slate-400 italic">null</span> : text}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length === 0 && <p className="px-3 py-4 text-sm text-slate-600">The query returned no rows.</p>}
    </div>
  );
}
