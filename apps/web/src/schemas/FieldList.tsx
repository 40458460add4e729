import { useId, useState } from 'react';
import { Button } from '../components/Button';
import { FieldRow } from './FieldRow';
import { moved, nameProblem, newField, type SchemaField } from './schemaFields';

interface FieldListProps {
  fields: SchemaField[];
  onChange: (fields: SchemaField[]) => void;
  /** The field these are the sub-fields of; absent for the top level. */
  parent?: SchemaField;
}

/** A list of fields, top-level or sub-fields, each editable, movable and removable, with a button to add one. */
export function FieldList({ fields, onChange, parent }: FieldListProps) {
  const [addedId, setAddedId] = useState<string | null>(null);
  const addButtonId = useId();
  const what = parent ? `sub-field of ${parent.name}` : 'field';

  function add() {
    const field = newField(fields);
    setAddedId(field.id);
    onChange([...fields, field]);
  }

  function remove(index: number) {
    onChange(fields.filter((_, at) => at !== index));
    // The removed row held the focus; the list's own button is where the next action starts.
    document.getElementById(addButtonId)?.focus();
  }

  return (
    <div className="space-y-2">
      {fields.length === 0 ? (
        <p className="text-sm text-slate-500">{parent ? 'No sub-fields yet.' : 'No fields yet.'}</p>
      ) : (
        <ol aria-label={parent ? `Sub-fields of ${parent.name}` : 'Fields'} className="space-y-2">
          {fields.map((field, index) => (
            <FieldRow
              key={field.id}
              field={field}
              isFirst={index === 0}
              isLast={index === fields.length - 1}
              nameProblem={nameProblem(fields, index)}
              autoFocus={field.id === addedId}
              onChange={(next) => onChange(fields.map((candidate, at) => (at === index ? next : candidate)))}
              onMove={(offset) => onChange(moved(fields, index, offset))}
              onRemove={() => remove(index)}
            />
          ))}
        </ol>
      )}
      <Button id={addButtonId} variant="secondary" className="px-2.5 py-1 text-xs" aria-label={`Add a ${what}`} onClick={add}>
        + {parent ? 'Add sub-field' : 'Add field'}
      </Button>
    </div>
  );
}
