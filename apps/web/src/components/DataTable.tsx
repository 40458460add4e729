import type { ReactNode } from 'react';

interface DataTableProps {
  columns: string[];
  /** The rows (`<tr>` elements); the last cell of each holds its actions. */
  children: ReactNode;
}

/** The frame every list of the app shares: headed columns, then an unlabeled actions column. */
export function DataTable({ columns, children }: DataTableProps) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-2">
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">{children}</tbody>
      </table>
    </div>
  );
}
