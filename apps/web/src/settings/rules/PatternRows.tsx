export interface PatternRow {
  path: string;
  glob: string;
}

const inputClass =
  'block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none';

interface PatternRowsProps {
  rows: PatternRow[];
  onChange: (rows: PatternRow[]) => void;
}

/** The arguments a rule looks at: each a path and the glob its value must match. */
export function PatternRows({ rows, onChange }: PatternRowsProps) {
  const set = (index: number, change: Partial<PatternRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Arguments</legend>
      <p className="text-xs text-slate-500">
        None: every call of the tool. Each line narrows it: the argument (e.g. <code>document_id</code>,{' '}
        <code>fields[0].name</code>) must match the glob (<code>*</code> any text, <code>?</code> one character,{' '}
        <code>{'{a,b}'}</code> either).
      </p>
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place while being edited
        <div key={index} className="flex items-center gap-2">
          <input
            aria-label={`Argument ${index + 1}`}
            className={inputClass}
            placeholder="document_id"
            value={row.path}
            onChange={(event) => set(index, { path: event.target.value })}
          />
          <span className="text-xs text-slate-500">matches</span>
          <input
            aria-label={`Glob of argument ${index + 1}`}
            className={inputClass}
            placeholder="inv-*"
            value={row.glob}
            onChange={(event) => set(index, { glob: event.target.value })}
          />
          <button
            type="button"
            className="rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-100"
            aria-label={`Remove argument ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            Remove
          </button>
        </div>
      ))}
      <button
        type="button"
        className="rounded border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
        onClick={() => onChange([...rows, { path: '', glob: '' }])}
      >
        Add an argument
      </button>
    </fieldset>
  );
}

export const rowsOf = (pattern: Record<string, string>): PatternRow[] =>
  Object.entries(pattern).map(([path, glob]) => ({ path, glob }));

export const patternOf = (rows: PatternRow[]): Record<string, string> =>
  Object.fromEntries(rows.filter((r) => r.path.trim() !== '').map((r) => [r.path.trim(), r.glob]));
