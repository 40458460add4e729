import { useId } from 'react';
import { FieldList } from './FieldList';
import type { BuilderState } from './schemaDraft';
import type { SchemaField } from './schemaFields';

interface SchemaFieldBuilderProps {
  builder: BuilderState;
  onChange: (fields: SchemaField[]) => void;
}

/** The schema's fields as rows to edit; the JSON follows each change. */
export function SchemaFieldBuilder({ builder, onChange }: SchemaFieldBuilderProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="min-w-0 space-y-2">
      <div>
        <h2 id={headingId} className="text-sm font-medium text-slate-800">
          Fields
        </h2>
        <p className="mt-0.5 text-xs text-slate-500">What the model fills in for each document. The JSON follows every change.</p>
      </div>
      {builder.status === 'waiting' ? (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">{builder.reason}</p>
      ) : (
        <FieldList fields={builder.fields} onChange={onChange} />
      )}
    </section>
  );
}
