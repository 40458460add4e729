/** A small row of toggle buttons, one of them pressed: the view of a panel, the kind of a chart. */
export function SegmentedControl<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  /** Read by screen readers: what the choice is about. */
  legend: string;
  options: ReadonlyArray<{ id: T; label: string }>;
  value: T;
  onChange: (next: T) => void;
}) {
  return (
    <fieldset className="flex rounded-md border border-slate-300 bg-white p-0.5">
      <legend className="sr-only">{legend}</legend>
      {options.map((candidate) => (
        <button
          key={candidate.id}
          type="button"
          aria-pressed={value === candidate.id}
          onClick={() => onChange(candidate.id)}
          className={`rounded px-2.5 py-0.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-slate-500 ${value === candidate.id ? 'bg-slate-900 text-white' : 'text-slate-600 hover:text-slate-900'}`}
        >
          {candidate.label}
        </button>
      ))}
    </fieldset>
  );
}
