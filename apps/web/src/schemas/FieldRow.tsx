import { useId, useRef } from 'react';
import { FieldList } from './FieldList';
import { type FieldType, type SchemaField, withType } from './schemaFields';

const TYPE_LABELS: [FieldType, string][] = [
  ['string', 'Text'],
  ['number', 'Number'],
  ['integer', 'Whole number'],
  ['boolean', 'Yes / no'],
  ['date', 'Date'],
  ['string-list', 'List of texts'],
  ['number-list', 'List of numbers'],
  ['object', 'Object'],
  ['object-list', 'List of objects'],
];

const INPUT =
  'block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none aria-invalid:border-red-400';
const LABEL = 'block text-xs font-medium text-slate-600';
const ICON_BUTTON =
  'inline-flex size-8 items-center justify-center rounded-md border border-slate-300 bg-white text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-500 disabled:cursor-not-allowed disabled:opacity-40';

interface FieldRowProps {
  field: SchemaField;
  isFirst: boolean;
  isLast: boolean;
  nameProblem: string | undefined;
  /** A field just added: its name is focused and selected, ready to be typed over. */
  autoFocus: boolean;
  onChange: (field: SchemaField) => void;
  onMove: (offset: number) => void;
  onRemove: () => void;
}

/** One field of the builder: name, type, description, whether it is required, and its sub-fields. */
export function FieldRow({ field, isFirst, isLast, nameProblem, autoFocus, onChange, onMove, onRemove }: FieldRowProps) {
  const id = useId();
  const upButton = useRef<HTMLButtonElement>(null);
  const downButton = useRef<HTMLButtonElement>(null);
  const selectOnFocus = useRef(autoFocus);
  const label = field.name.trim() === '' ? 'unnamed field' : field.name;
  const isOther = field.type === 'other';

  function move(offset: number) {
    onMove(offset);
    // The row is moved in the page, which takes the focus from its button; it goes back once the move is drawn.
    requestAnimationFrame(() => {
      const same = offset < 0 ? upButton.current : downButton.current;
      const other = offset < 0 ? downButton.current : upButton.current;
      (same && !same.disabled ? same : other)?.focus();
    });
  }

  return (
    <li className="rounded-md border border-slate-200 bg-white p-3">
      <fieldset className="min-w-0 space-y-2">
        <legend className="sr-only">Field {label}</legend>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-32 flex-1">
            <label htmlFor={`${id}-name`} className={LABEL}>
              Name
            </label>
            <input
              id={`${id}-name`}
              className={`mt-1 font-mono ${INPUT}`}
              value={field.name}
              autoComplete="off"
              spellCheck={false}
              // biome-ignore lint/a11y/noAutofocus: a field the person just added is where they type next
              autoFocus={autoFocus}
              onFocus={(event) => {
                if (selectOnFocus.current) event.target.select();
                selectOnFocus.current = false;
              }}
              aria-invalid={nameProblem ? true : undefined}
              aria-describedby={nameProblem ? `${id}-name-problem` : undefined}
              onChange={(event) => onChange({ ...field, name: event.target.value })}
            />
          </div>
          <div className="w-40 max-w-full">
            <label htmlFor={`${id}-type`} className={LABEL}>
              Type
            </label>
            <select
              id={`${id}-type`}
              className={`mt-1 pr-8 ${INPUT}`}
              value={field.type}
              onChange={(event) => onChange(withType(field, event.target.value as FieldType))}
            >
              {isOther && (
                <option value="other" disabled>
                  Other (edit in the JSON)
                </option>
              )}
              {TYPE_LABELS.map(([type, text]) => (
                <option key={type} value={type}>
                  {text}
                </option>
              ))}
            </select>
          </div>
          <div className="flex gap-1">
            <button
              ref={upButton}
              type="button"
              className={ICON_BUTTON}
              aria-label={`Move ${label} up`}
              title="Move up"
              disabled={isFirst}
              onClick={() => move(-1)}
            >
              ↑
            </button>
            <button
              ref={downButton}
              type="button"
              className={ICON_BUTTON}
              aria-label={`Move ${label} down`}
              title="Move down"
              disabled={isLast}
              onClick={() => move(1)}
            >
              ↓
            </button>
            <button
              type="button"
              className={`${ICON_BUTTON} text-red-700 hover:bg-red-50`}
              aria-label={`Delete ${label}`}
              title="Delete"
              onClick={onRemove}
            >
              ✕
            </button>
          </div>
        </div>
        {nameProblem && (
          <p id={`${id}-name-problem`} className="text-xs text-red-700">
            {nameProblem}
          </p>
        )}
        <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
          <div className="min-w-48 flex-1">
            <label htmlFor={`${id}-description`} className={LABEL}>
              Description
            </label>
            <input
              id={`${id}-description`}
              className={`mt-1 ${INPUT}`}
              value={field.description}
              placeholder="What the model should put here"
              autoComplete="off"
              onChange={(event) => onChange({ ...field, description: event.target.value })}
            />
          </div>
          <label
            className="flex items-center gap-2 py-2 text-sm text-slate-800"
            title={isOther ? 'Edit in the JSON' : 'Unticked, the model may answer null'}
          >
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={field.required}
              disabled={isOther}
              aria-describedby={`${id}-required-hint`}
              onChange={(event) => onChange({ ...field, required: event.target.checked })}
            />
            Required
          </label>
          <span id={`${id}-required-hint`} className="sr-only">
            {isOther ? 'Change this in the JSON.' : 'Unticked, the model may answer null.'}
          </span>
        </div>
        {isOther && (
          <p className="text-xs text-slate-500">
            This field’s schema uses more than the builder shows, so it is kept as written: edit it in the JSON.
          </p>
        )}
        {(field.type === 'object' || field.type === 'object-list') && (
          <div className="border-l-2 border-slate-200 pl-3">
            <p className="mb-2 text-xs font-medium text-slate-600">
              {field.type === 'object' ? `The fields of ${label}` : `The fields of each item of ${label} (its table’s columns)`}
            </p>
            <FieldList parent={field} fields={field.fields} onChange={(fields) => onChange({ ...field, fields })} />
          </div>
        )}
      </fieldset>
    </li>
  );
}
