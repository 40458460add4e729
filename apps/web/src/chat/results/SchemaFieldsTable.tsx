import { schemaFieldRows } from './resultShapes';

/** A schema's fields: name, type in words, description; required ones marked. */
export function SchemaFieldsTable({ responseFormat, label }: { responseFormat: unknown; label: string }) {
  const rows = schemaFieldRows(responseFormat);
  if (rows.length === 0) return null;
  const cell = 'border border-slate-200 px-1.5 py-0.5 align-top';
  return (
    <table aria-label={label} className="w-full border-collapse text-xs">
      <thead>
        <tr className="bg-slate-50 text-left">
          <th scope="col" className={`${cell} font-medium`}>
            Field
          </th>
          <th scope="col" className={`${cell} font-medium`}>
            Type
          </th>
          <th scope="col" className={`${cell} font-medium`}>
            Description
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <td className={`${cell} font-mono text-slate-800`}>
              {row.name}
              {row.required && (
                <span className="text-red-700" title="required">
                  {' '}
                  *
                </span>
              )}
            </td>
            <td className={`${cell} text-slate-700`}>{row.type}</td>
            <td className={`${cell} text-slate-600`}>{row.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
