import type { ScalarDraft } from './fieldDrafts';
import { GrowingTextArea } from './GrowingTextArea';

const BOX =
  'block w-full rounded-md border border-slate-300 bg-white text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50 aria-invalid:border-red-400';

interface ScalarInputProps {
  draft: ScalarDraft;
  onChange: (draft: ScalarDraft) => void;
  id?: string;
  /** For an input without a label of its own: a list item, a table cell. */
  label?: string;
  describedBy?: string;
  invalid: boolean;
  disabled: boolean;
  /** Smaller, for a table cell. */
  compact?: boolean;
}

const TYPE_WORDS: Record<ScalarDraft['type'], string> = {
  string: 'text',
  date: 'a date (YYYY-MM-DD)',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
};

/** What to say about a value that does not fit its type and is shown as it was. */
export function rawHint(draft: ScalarDraft): string | undefined {
  return draft.raw ? `Shown as the model wrote it: the schema asks for ${TYPE_WORDS[draft.type]}.` : undefined;
}

/** One scalar value, in the input its type calls for; a value that does not fit its type, as plain text. */
export function ScalarInput({ draft, onChange, id, label, describedBy, invalid, disabled, compact = false }: ScalarInputProps) {
  const common = {
    id,
    disabled,
    'aria-label': label,
    'aria-describedby': describedBy,
    'aria-invalid': invalid ? true : undefined,
  };
  const box = `${BOX} ${compact ? 'px-2 py-1' : 'px-3 py-2'}`;
  const change = (text: string) => onChange({ ...draft, text });

  if (draft.type === 'boolean' && !draft.raw) {
    if (!draft.nullable) {
      return (
        <input
          type="checkbox"
          className="size-4 rounded border-slate-300"
          checked={draft.text === 'true'}
          onChange={(event) => change(String(event.target.checked))}
          {...common}
        />
      );
    }
    return (
      <select className={`${box} pr-8`} value={draft.text} onChange={(event) => change(event.target.value)} {...common}>
        <option value="">No value</option>
        <option value="true">Yes</option>
        <option value="false">No</option>
      </select>
    );
  }
  if (draft.long) {
    return <GrowingTextArea className={box} value={draft.text} onChange={(event) => change(event.target.value)} {...common} />;
  }
  const typed = !draft.raw && draft.type !== 'string';
  const inputType = typed ? (draft.type === 'date' ? 'date' : 'number') : 'text';
  return (
    <input
      type={inputType}
      step={inputType === 'number' ? (draft.type === 'integer' ? 1 : 'any') : undefined}
      className={`${box} ${compact ? minWidths[inputType] : ''}`}
      value={draft.text}
      autoComplete="off"
      placeholder={draft.nullable && !typed ? 'No value' : undefined}
      onChange={(event) => change(event.target.value)}
      {...common}
    />
  );
}

/** Table cells wide enough for what they hold. */
const minWidths: Record<string, string> = { date: 'min-w-36', number: 'min-w-20', text: 'min-w-28' };
