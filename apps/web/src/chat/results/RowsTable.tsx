import type { ResultShape } from './resultShapes';

const cell = (value: unknown) =>
  value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** A query's rows as a small table, with how many there were and the SQL that gave them. */
export function RowsTable({ shape }: { shape: Extract<ResultShape, { kind: 'rows' }> }) {
  const more = shape.rowCount > shape.rows.length;
  return (
    <div className="space-y-1">
      <p className="text-xs text-slate-700">
        {shape.rowCount} {shape.rowCount === 1 ? 'row' : 'rows'}
        {more && `, the first ${shape.rows.length} shown`}
      </p>
      {shape.sql && (
        <pre className="max-h-24 overflow-auto rounded bg-slate-50 px-2 py-1 font-mono text-xs whitespace-pre-wrap break-words text-slate-700">
          {shape.sql}
        </pre>
      )}
      {shape.columns.length > 0 && (
        <table aria-label="Rows of the result" className="w-full border-collapse text-xs">
          <thead>
            <tr>
              {shape.columns.map((column, index) => (
                // Columns may repeat a name (SELECT a, a): the position keeps the keys apart.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <th key={index} scope="col" className="border-b border-slate-200 px-1.5 py-0.5 text-left font-mono font-medium">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shape.rows.map((row, rowIndex) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
              <tr key={rowIndex} className="odd:bg-slate-50">
                {shape.columns.map((_column, columnIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its position
                  <td key={columnIndex} className="px-1.5 py-0.5 font-mono text-slate-800">
                    {cell(row[columnIndex])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
