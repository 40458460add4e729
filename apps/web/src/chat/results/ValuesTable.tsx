const MAX_ROWS = 20;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <span className="text-slate-400">empty</span>;
  if (typeof value === 'boolean') return <>{value ? 'yes' : 'no'}</>;
  if (typeof value === 'object') return <span className="font-mono">{JSON.stringify(value)}</span>;
  return <>{String(value)}</>;
}

const cellClass = 'border border-slate-200 px-1.5 py-0.5 align-top';

/** A list of objects as a small table: one column per key any of them has. */
function ObjectsTable({ rows }: { rows: Json[] }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const shown = rows.slice(0, MAX_ROWS);
  return (
    <div className="overflow-x-auto">
      <table className="border-collapse text-xs">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={`${cellClass} bg-slate-50 text-left font-medium`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, index) => (
            // Rows have no identity of their own; their order is the value's.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <tr key={index}>
              {columns.map((column) => (
                <td key={column} className={cellClass}>
                  <Value value={row[column]} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && <p className="text-slate-500">and {rows.length - shown.length} more rows</p>}
    </div>
  );
}

function Value({ value }: { value: unknown }) {
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-400">none</span>;
    if (value.every(isObject)) return <ObjectsTable rows={value} />;
    return (
      <>
        {value.map((entry, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a list's entries are known by their place
          <span key={index}>
            {index > 0 && ', '}
            <Scalar value={entry} />
          </span>
        ))}
      </>
    );
  }
  if (isObject(value)) return <ValuesTable values={value} />;
  return <Scalar value={value} />;
}

/** Extracted values as a person reads them: a row per field, lists of objects as tables, nothing as "empty". */
export function ValuesTable({ values, label }: { values: unknown; label?: string }) {
  if (!isObject(values)) return <Value value={values} />;
  const entries = Object.entries(values);
  if (entries.length === 0) return <p className="text-xs text-slate-500">No values.</p>;
  return (
    <table aria-label={label} className="w-full border-collapse text-xs">
      <tbody>
        {entries.map(([field, value]) => (
          <tr key={field}>
            <th scope="row" className={`${cellClass} w-1/3 bg-slate-50 text-left font-mono font-normal text-slate-600`}>
              {field}
            </th>
            <td className={`${cellClass} text-slate-900`}>
              <Value value={value} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
