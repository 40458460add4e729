/** A value as indented JSON behind a summary, collapsed: tool arguments and outputs are for when someone looks. */
export function JsonDetails({ label, value }: { label: string; value: unknown }) {
  const text = value === undefined ? 'Nothing' : JSON.stringify(value, null, 2);
  return (
    <details className="group rounded-md border border-slate-200">
      <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-slate-700 select-none">{label}</summary>
      <pre className="max-h-80 overflow-auto border-t border-slate-200 bg-slate-50 px-3 py-2 font-mono text-xs break-words whitespace-pre-wrap text-slate-800">
        {text}
      </pre>
    </details>
  );
}
