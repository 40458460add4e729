/**
 * The schema editor's one state: the JSON text as typed, and the fields the builder shows for it.
 * The text is the truth; the builder follows it while it is readable and rewrites it when a field
 * changes. Broken JSON is never replaced: the builder waits until it can be read again.
 */
import { parseJson } from '../lib/parseJson.ts';
import { fieldsOf, hasNameProblems, type SchemaField, withFields } from './schemaFields.ts';
import { formatJson } from './starterSchema.ts';

export type BuilderState =
  | { status: 'ready'; responseFormat: Record<string, unknown>; fields: SchemaField[] }
  | { status: 'waiting'; reason: string };

export interface SchemaDraft {
  text: string;
  builder: BuilderState;
  /** The fields last shown, so that rows keep their identity across a moment of broken JSON. */
  lastFields: SchemaField[];
}

export function draftOfText(text: string, lastFields: SchemaField[] = []): SchemaDraft {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const where = parsed.error.line === undefined ? '' : `line ${parsed.error.line}, column ${parsed.error.column}: `;
    const reason = `Waiting for valid JSON (${where}${parsed.error.message}). Fix it in the JSON and the fields show again.`;
    return { text, builder: { status: 'waiting', reason }, lastFields };
  }
  const read = fieldsOf(parsed.value, lastFields);
  if (!read.ok) return { text, builder: { status: 'waiting', reason: read.reason }, lastFields };
  const responseFormat = parsed.value as Record<string, unknown>;
  return { text, builder: { status: 'ready', responseFormat, fields: read.fields }, lastFields: read.fields };
}

/**
 * The draft after a change in the builder. While a field has no name, or shares it with another,
 * the JSON cannot hold it: the text stays as it was until the names are fixed.
 */
export function draftWithFields(draft: SchemaDraft, fields: SchemaField[]): SchemaDraft {
  if (draft.builder.status !== 'ready') return draft;
  const { responseFormat } = draft.builder;
  const text = hasNameProblems(fields) ? draft.text : formatJson(withFields(responseFormat, fields));
  return { text, builder: { status: 'ready', responseFormat, fields }, lastFields: fields };
}
