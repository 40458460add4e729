import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ApiError } from '../api/client';
import { type Schema, useSaveSchemaMutation } from '../api/schemas';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import { parseJson } from '../lib/parseJson';
import { ProblemList } from './ProblemList';
import { ResponseFormatStatus } from './ResponseFormatStatus';
import { SchemaEditorPanes } from './SchemaEditorPanes';
import { SchemaFieldBuilder } from './SchemaFieldBuilder';
import { hasNameProblems } from './schemaFields';
import { formatJson, starterResponseFormat } from './starterSchema';
import { useResponseFormatCheck } from './useResponseFormatCheck';
import { useSchemaDraft } from './useSchemaDraft';

interface SchemaEditorProps {
  orgId: string;
  /** The current version of the schema being edited, or null for a new schema. */
  schema: Schema | null;
  onSaved: (saved: Schema) => void;
  /** Shown beside the name, such as the list of versions: below it the fields and the JSON take the whole width. */
  aside?: ReactNode;
}

/**
 * The schema's name and its response_format, edited as fields or as JSON (one state, either side
 * writing it) and checked while typed; saving an edit adds a version.
 */
export function SchemaEditor({ orgId, schema, onSaved, aside }: SchemaEditorProps) {
  const statusId = useId();
  const [name, setName] = useState(schema?.name ?? '');
  const { draft, editText, editFields } = useSchemaDraft(formatJson(schema?.response_format ?? starterResponseFormat));
  const { text, builder } = draft;
  const check = useResponseFormatCheck(orgId, text);
  const save = useSaveSchemaMutation(orgId, schema?.schema_id ?? null);
  const trimmedName = name.trim();
  // A field name the JSON cannot hold yet (empty, or used twice) leaves the text behind the builder.
  const namesPending = builder.status === 'ready' && hasNameProblems(builder.fields);
  const canSave = trimmedName !== '' && check.status === 'valid' && !namesPending && !save.isPending;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (canSave) {
      save.mutate({ name: trimmedName, response_format: check.responseFormat }, { onSuccess: onSaved });
    }
  }

  function reformat() {
    const parsed = parseJson(text);
    if (parsed.ok) {
      editText(formatJson(parsed.value));
    }
  }

  const saveProblems = save.error instanceof ApiError ? save.error.problems : [];
  return (
    <form
      aria-label={schema ? `Edit schema ${schema.name}` : 'New schema'}
      onSubmit={handleSubmit}
      noValidate
      className="space-y-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <TextField
          label="Schema name"
          name="name"
          autoComplete="off"
          className="w-full max-w-md"
          hint="How lists and the prompt editor show the schema."
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        {aside && <div className="max-h-56 w-64 overflow-y-auto">{aside}</div>}
      </div>
      <SchemaEditorPanes
        fields={<SchemaFieldBuilder builder={builder} onChange={editFields} />}
        json={
          <TextAreaField
            label="Response format (JSON)"
            hint="The JSON Schema the model's answer must follow, in OpenAI's strict response_format envelope."
            describedBy={statusId}
            invalid={check.status === 'syntax-error' || check.status === 'invalid'}
            rows={24}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            wrap="off"
            monospace
            value={text}
            onChange={(event) => editText(event.target.value)}
          />
        }
      />
      <ResponseFormatStatus id={statusId} check={check} />
      {save.isError && (
        <div className="space-y-2">
          <ErrorAlert title="Could not save the schema" error={save.error} />
          {saveProblems.length > 0 && <ProblemList label="Problems found when saving" problems={saveProblems} />}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!canSave}>
          {save.isPending ? 'Saving…' : 'Save schema'}
        </Button>
        <Button variant="secondary" disabled={check.status === 'syntax-error'} onClick={reformat}>
          Format JSON
        </Button>
        {trimmedName === '' && <p className="text-xs text-slate-500">Enter a schema name to save.</p>}
        {trimmedName !== '' && namesPending && <p className="text-xs text-slate-500">Give every field its own name to save.</p>}
        {trimmedName !== '' && !namesPending && schema && (
          <p className="text-xs text-slate-500">Saving a change creates version {schema.schema_version + 1}.</p>
        )}
      </div>
    </form>
  );
}
