import { type TextareaHTMLAttributes, useId } from 'react';

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  hint?: string;
  /** Ids of elements elsewhere on the page that describe the value, such as a list of its problems. */
  describedBy?: string;
  invalid?: boolean;
  /** For code such as JSON. */
  monospace?: boolean;
}

export function TextAreaField({
  label,
  hint,
  describedBy,
  invalid,
  monospace,
  className = '',
  ...textareaProps
}: TextAreaFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const describers = [hint ? hintId : undefined, describedBy].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="mt-0.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
      <textarea
        id={id}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describers || undefined}
        className={`mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 ${monospace ? 'font-mono text-xs leading-5' : 'text-sm'} shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none aria-invalid:border-red-400`}
        {...textareaProps}
      />
    </div>
  );
}
