interface ModelChecklistProps {
  /** The group's accessible name, e.g. "Enabled models". */
  legend: string;
  hint: string;
  models: string[];
  checked: Set<string>;
  disabled: boolean;
  onChange: (checked: Set<string>) => void;
}

export function ModelChecklist({ legend, hint, models, checked, disabled, onChange }: ModelChecklistProps) {
  function toggle(model: string, on: boolean) {
    const next = new Set(checked);
    if (on) next.add(model);
    else next.delete(model);
    onChange(next);
  }
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <p className="text-xs text-slate-500">{hint}</p>
      {models.length === 0 ? (
        <p className="mt-1 text-sm text-slate-500">No models are available.</p>
      ) : (
        <ul className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {models.map((model) => (
            <li key={model}>
              <label className="flex items-center gap-2 font-mono text-xs text-slate-800">
                <input
                  type="checkbox"
                  className="size-4 rounded border-slate-300"
                  checked={checked.has(model)}
                  disabled={disabled}
                  onChange={(event) => toggle(model, event.target.checked)}
                />
                {model}
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
