import { useId } from 'react';
import { keyPath } from '../citations/citationPaths.ts';
import { CitationMarks } from './CitationMarks';
import { activeFieldClass } from './CitedValue';
import type { FieldDraft } from './fieldDrafts';
import { GrowingTextArea } from './GrowingTextArea';
import { ListEditor } from './ListEditor';
import { useCitedField, useReviewWithin } from './ResultCitations';
import { rawHint, ScalarInput } from './ScalarInput';
import { TableEditor } from './TableEditor';

interface ValueFieldProps {
  name: string;
  /** The value's dot path in the result, as problems name it. */
  path: string;
  /** The value's citation path ("line_items[2].amount"). */
  citePath: string;
  draft: FieldDraft;
  /** The dot paths that have a problem. */
  invalidPaths: Set<string>;
  disabled: boolean;
  /** Ids of elements that describe the value, such as its problems. */
  describedBy?: string;
  onChange: (draft: FieldDraft) => void;
}

const LABEL = 'block text-sm font-medium text-slate-800';
const JSON_BOX =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-xs leading-5 text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50 aria-invalid:border-red-400';

/** One named value of a result, with its label, in the editor its kind calls for; objects hold more of them. */
export function ValueField({ name, path, citePath, draft, invalidPaths, disabled, describedBy, onChange }: ValueFieldProps) {
  const id = useId();
  const invalid = invalidPaths.has(path);
  const cited = useCitedField(citePath);
  const reviewWithin = useReviewWithin(citePath);

  if (draft.kind === 'scalar') {
    const hint = rawHint(draft);
    const marked = cited.review || cited.notFound;
    const describers =
      [hint ? `${id}-hint` : undefined, marked ? `${id}-marks` : undefined, describedBy].filter(Boolean).join(' ') || undefined;
    const input = (
      <ScalarInput id={id} draft={draft} describedBy={describers} invalid={invalid} disabled={disabled} onChange={onChange} />
    );
    const marks = (
      <CitationMarks
        id={`${id}-marks`}
        review={cited.review}
        notFound={cited.notFound}
        confidence={cited.citation?.confidence}
        probability={cited.citation?.probability}
      />
    );
    return (
      <div {...cited.target} className={cited.active ? activeFieldClass : undefined}>
        {draft.type === 'boolean' && !draft.raw && !draft.nullable ? (
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-800">
              {input}
              {name}
            </label>
            {marks}
          </div>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <label htmlFor={id} className={LABEL}>
                {name}
              </label>
              {marks}
            </div>
            <div className="mt-1">{input}</div>
          </>
        )}
        {hint && (
          <p id={`${id}-hint`} className="mt-1 text-xs text-amber-800">
            {hint}
          </p>
        )}
      </div>
    );
  }

  if (draft.kind === 'json') {
    return (
      <div>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <label htmlFor={id} className={LABEL}>
            {name} <span className="font-normal text-slate-500">(JSON)</span>
          </label>
          <CitationMarks review={reviewWithin} notFound={false} />
        </div>
        <GrowingTextArea
          id={id}
          className={JSON_BOX}
          spellCheck={false}
          value={draft.text}
          disabled={disabled}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange({ kind: 'json', text: event.target.value })}
        />
      </div>
    );
  }

  return (
    <fieldset className="min-w-0" aria-describedby={describedBy}>
      <legend id={`${id}-legend`} className={LABEL}>
        {name}
      </legend>
      <div className="mt-1">
        {draft.kind === 'list' && (
          <ListEditor
            name={name}
            path={path}
            citePath={citePath}
            draft={draft}
            invalidPaths={invalidPaths}
            disabled={disabled}
            onChange={onChange}
          />
        )}
        {draft.kind === 'table' && (
          <TableEditor
            name={name}
            labelledBy={`${id}-legend`}
            path={path}
            citePath={citePath}
            draft={draft}
            invalidPaths={invalidPaths}
            disabled={disabled}
            onChange={onChange}
          />
        )}
        {draft.kind === 'object' && (
          <div className="space-y-3 border-l-2 border-slate-200 pl-3">
            {draft.fields.length === 0 && <p className="text-sm text-slate-500">No fields</p>}
            {draft.fields.map(([key, value], index) => (
              <ValueField
                key={key}
                name={key}
                path={`${path}.${key}`}
                citePath={keyPath(citePath, key)}
                draft={value}
                invalidPaths={invalidPaths}
                disabled={disabled}
                onChange={(next) =>
                  onChange({ ...draft, fields: draft.fields.map((entry, at) => (at === index ? [key, next] : entry)) })
                }
              />
            ))}
          </div>
        )}
      </div>
    </fieldset>
  );
}
