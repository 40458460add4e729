import type { WorkingExtraction } from '../api/chatStream';

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-400">—</span>;
  if (typeof value === 'object') {
    return <pre className="font-mono text-xs whitespace-pre-wrap break-words">{JSON.stringify(value, null, 2)}</pre>;
  }
  return <span className="break-words">{String(value)}</span>;
}

/** Extracted values as a list of fields, or as JSON when they are not an object. */
export function ExtractionValues({ values }: { values: unknown }) {
  const fields = typeof values === 'object' && values !== null && !Array.isArray(values) ? Object.entries(values) : null;
  if (fields === null) return <Value value={values} />;
  return (
    <dl className="grid grid-cols-[minmax(0,1fr)_minmax(0,2fr)] gap-x-3 gap-y-1">
      {fields.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="truncate font-mono text-slate-500" title={name}>
            {name}
          </dt>
          <dd className="text-slate-900">
            <Value value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The conversation's current extraction, updated as the agent runs a prompt or patches a field. */
export function ExtractionSection({ extraction }: { extraction: WorkingExtraction | null }) {
  const values = extraction?.values;
  const fields = typeof values === 'object' && values !== null && !Array.isArray(values) ? Object.entries(values) : null;
  return (
    <details className="rounded-md border border-slate-200 bg-white px-3 py-1.5 text-xs text-slate-700">
      <summary className="cursor-pointer font-medium">
        Current extraction
        {fields !== null && <span className="ml-1 font-normal text-slate-500">({fields.length} fields)</span>}
      </summary>
      <section aria-label="Current extraction" className="mt-2 max-h-64 overflow-y-auto pb-1">
        {extraction === null ? (
          <p className="text-slate-500">No extraction in this conversation yet.</p>
        ) : (
          <ExtractionValues values={values} />
        )}
        {extraction !== null && extraction.promptRevid !== '' && (
          <p className="mt-2 text-slate-500">Prompt revision {extraction.promptRevid}</p>
        )}
      </section>
    </details>
  );
}
