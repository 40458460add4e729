import { useId } from 'react';
import type { InputProblem } from '../api/client';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import type { FieldDraft } from './fieldDrafts';

interface ResultFieldProps {
  name: string;
  draft: FieldDraft;
  problems: InputProblem[];
  disabled: boolean;
  onChange: (draft: FieldDraft) => void;
}

/** Past this many characters a text value is edited in a text area. */
const LONG_TEXT = 60;

/** What is wrong with the field, each problem with its path when it is about a part of the field. */
function problemText(name: string, problems: InputProblem[]): string | undefined {
  if (problems.length === 0) return undefined;
  return problems.map(({ path, message }) => (path === name ? message : `${path}: ${message}`)).join(' ');
}

/** One field of a result, edited with the input its value calls for. */
export function ResultField({ name, draft, problems, disabled, onChange }: ResultFieldProps) {
  const errorId = useId();
  const error = problemText(name, problems);

  if (draft.kind === 'boolean') {
    return (
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300"
            checked={draft.checked}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => onChange({ kind: 'boolean', checked: event.target.checked })}
          />
          {name}
        </label>
        {error && (
          <p id={errorId} className="mt-1 text-xs text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  }

  if (draft.kind === 'json') {
    return (
      <div>
        <TextAreaField
          label={name}
          hint="JSON"
          monospace
          rows={Math.min(8, draft.text.split('\n').length + 1)}
          value={draft.text}
          disabled={disabled}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
          spellCheck={false}
          onChange={(event) => onChange({ kind: 'json', text: event.target.value })}
        />
        {error && (
          <p id={errorId} className="mt-1 text-xs text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  }

  // Long text (a summary, an address) gets room to be read and edited, growing with its lines.
  if (draft.kind === 'string' && (draft.text.length > LONG_TEXT || draft.text.includes('\n'))) {
    return (
      <div>
        <TextAreaField
          label={name}
          rows={Math.min(10, Math.max(2, draft.text.split('\n').length, Math.ceil(draft.text.length / 45)))}
          value={draft.text}
          disabled={disabled}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
          onChange={(event) => onChange({ kind: 'string', text: event.target.value })}
        />
        {error && (
          <p id={errorId} className="mt-1 text-xs text-red-700">
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <TextField
      label={name}
      value={draft.text}
      disabled={disabled}
      error={error}
      inputMode={draft.kind === 'number' ? 'decimal' : undefined}
      hint={draft.kind === 'null' ? 'Empty: no value' : undefined}
      autoComplete="off"
      onChange={(event) => onChange({ kind: draft.kind, text: event.target.value })}
    />
  );
}
