import { useId } from 'react';

interface ModelPickerProps {
  models: string[];
  value: string | undefined;
  disabled: boolean;
  onChange: (model: string) => void;
}

/** The org's chat models; the choice is remembered with the panel's settings. */
export function ModelPicker({ models, value, disabled, onChange }: ModelPickerProps) {
  const id = useId();
  return (
    <div className="flex min-w-0 items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        Model
      </label>
      <select
        id={id}
        value={value ?? ''}
        disabled={models.length === 0 || disabled}
        onChange={(event) => onChange(event.target.value)}
        className="min-w-0 rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 font-mono text-xs text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50"
      >
        {models.length === 0 && <option value="">No model</option>}
        {models.map((candidate) => (
          <option key={candidate} value={candidate}>
            {candidate}
          </option>
        ))}
      </select>
    </div>
  );
}
