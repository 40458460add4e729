import { schemaFieldRows } from './results/resultShapes';
import { summarizeArguments } from './toolArguments';

type Args = Record<string, unknown>;

/** The names of what a call's arguments name by id, where the app knows them. */
export interface CallNames {
  schema?: string;
  prompt?: string;
  tag?: (tagId: string) => string | undefined;
  note?: string;
}

const quoted = (value: unknown) => (typeof value === 'string' && value !== '' ? `“${value}”` : '');
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function withFields(responseFormat: unknown): string {
  const fields = schemaFieldRows(responseFormat)
    .map((row) => row.name)
    .filter((name) => !/[.[]/.test(name));
  if (fields.length === 0) return '';
  const shown = fields.slice(0, 5).join(', ');
  return ` with ${count(fields.length, 'field')}: ${shown}${fields.length > 5 ? ', …' : ''}`;
}

const onDocument = (a: Args) => (a.document_id ? ` on document ${a.document_id}` : ' on this document');

/** A thing named by its name when known, else by its id. */
const named = (name: string | undefined, id: unknown) => (name ? quoted(name) : typeof id === 'string' ? id : '');

function tagList(ids: unknown[], names: CallNames): string {
  const shown = ids.map((id) => named(names.tag?.(String(id)), id));
  return shown.length === 0 ? 'no tags' : `tags ${shown.join(', ')}`;
}

/** What a call will do, in words, for the tools a person is asked about most; null: no sentence for it. */
const sentences: Record<string, (a: Args, names: CallNames) => string> = {
  create_schema: (a) => `Create schema ${quoted(a.name)}${withFields(a.response_format)}`,
  update_schema: (a, n) =>
    `Save a new version of schema ${named(n.schema, a.schema_id)}${a.name ? ` as ${quoted(a.name)}` : ''}${withFields(a.response_format)}`,
  delete_schema: (a, n) => `Delete schema ${named(n.schema, a.schema_id)} and all its versions`,
  evaluate_prompt: (a, n) =>
    `Evaluate prompt ${named(n.prompt, a.prompt_revid)} on the verified documents (a model call each; no stored result changes)`,
  infer_schema: (a) =>
    `Propose a schema from ${Array.isArray(a.document_ids) ? count(a.document_ids.length, 'sample document') : 'sample documents'} (a model call each; nothing is saved)`,
  create_prompt: (a, n) => `Create prompt ${quoted(a.name)}${a.schema_id ? ` using schema ${named(n.schema, a.schema_id)}` : ''}`,
  update_prompt: (a, n) => `Save a new version of prompt ${named(n.prompt, a.prompt_id)}${a.name ? ` as ${quoted(a.name)}` : ''}`,
  delete_prompt: (a, n) => `Delete prompt ${named(n.prompt, a.prompt_id)}, its versions and their results`,
  run_extraction: (a, n) =>
    `Run ${a.prompt_revid ? `prompt ${named(n.prompt, a.prompt_revid)}` : 'the working prompt'}${onDocument(a)}`,
  update_extraction_field: (a) =>
    `Set ${typeof a.path === 'string' ? a.path : 'a field'} to ${JSON.stringify(a.value ?? null)}${onDocument(a)}`,
  update_document: (a, n) =>
    `Change ${a.document_id ? `document ${a.document_id}` : 'this document'}${a.document_name ? `: rename it ${quoted(a.document_name)}` : ''}${Array.isArray(a.tag_ids) ? `, set ${tagList(a.tag_ids, n)}` : ''}`,
  delete_document: (a) => `Delete ${a.document_id ? `document ${a.document_id}` : 'this document'} for good`,
  create_tag: (a) => `Create tag ${quoted(a.name)}`,
  update_tag: (a, n) =>
    `Change tag ${named(n.tag?.(String(a.tag_id)), a.tag_id)}${a.name ? `: rename it ${quoted(a.name)}` : ''}`,
  delete_tag: (a, n) => `Delete tag ${named(n.tag?.(String(a.tag_id)), a.tag_id)}`,
  list_notes: () => "List the project's notes",
  read_note: (a, n) => `Read the note ${named(n.note, a.note_id)}`,
  create_note: (a) =>
    `Create the note ${quoted(a.name)}${typeof a.content === 'string' ? ` (${count(a.content.length, 'character')})` : ''}`,
  rewrite_note: (a, n) =>
    `Rewrite the note ${named(n.note, a.note_id)}${a.section ? `, section ${quoted(a.section)}` : ''}${a.request ? `: ${a.request}` : ''}`,
  rename_note: (a, n) => `Rename the note ${named(n.note, a.note_id)} to ${quoted(a.name)}`,
  delete_note: (a, n) => `Delete the note ${named(n.note, a.note_id)} and all its versions`,
  web_search: (a) => `Search the web for ${quoted(a.query)}`,
};

/** One line saying what a call does; the arguments summarized when there is no sentence for the tool. */
export function describeCall(name: string, args: unknown, names: CallNames = {}): string {
  const sentence = sentences[name];
  if (sentence && typeof args === 'object' && args !== null && !Array.isArray(args)) {
    return sentence(args as Args, names)
      .replace(/\s+/g, ' ')
      .trim();
  }
  return summarizeArguments(args);
}
