import { useId } from 'react';

interface AutoCreateChoiceProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The organization's default is still loading: the box shows it once known. */
  disabled: boolean;
}

/** Whether the next uploads ask the agent to propose a schema and a prompt once their text is ready. */
export function AutoCreateChoice({ checked, onChange, disabled }: AutoCreateChoiceProps) {
  const hintId = useId();
  return (
    <div className="flex items-start gap-2 text-sm">
      <input
        id={`${hintId}-box`}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={hintId}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-4 rounded border-slate-300"
      />
      <div>
        <label htmlFor={`${hintId}-box`} className="font-medium text-slate-900">
          Auto-create schema &amp; prompt
        </label>
        <p id={hintId} className="text-xs text-slate-500">
          Once the text is ready, the agent proposes a schema and a prompt and runs the extraction; you review it on the
          document's page.
        </p>
      </div>
    </div>
  );
}
