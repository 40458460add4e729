import { summarizeArguments } from './toolArguments';

type Args = Record<string, unknown>;

const quoted = (value: unknown) => (typeof value === 'string' && value !== '' ? `“${value}”` : '');
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The fields a response_format (or its schema) declares, by name. */
function fieldsOf(responseFormat: unknown): string[] {
  let value = responseFormat;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const schema = (value as { json_schema?: { schema?: { properties?: object } } } | null)?.json_schema?.schema;
  return Object.keys(schema?.properties ?? {});
}

function withFields(responseFormat: unknown): string {
  const fields = fieldsOf(responseFormat);
  if (fields.length === 0) return '';
  const shown = fields.slice(0, 5).join(', ');
  return ` with ${count(fields.length, 'field')}: ${shown}${fields.length > 5 ? ', …' : ''}`;
}

const onDocument = (a: Args) => (a.document_id ? ` on document ${a.document_id}` : ' on this document');

/** What a call will do, in words, for the tools a person is asked about most; null: no sentence for it. */
const sentences: Record<string, (a: Args) => string> = {
  create_schema: (a) => `Create schema ${quoted(a.name)}${withFields(a.response_format)}`,
  update_schema: (a) =>
    `Save a new version of schema ${a.schema_id ?? ''}${a.name ? ` as ${quoted(a.name)}` : ''}${withFields(a.response_format)}`,
  delete_schema: (a) => `Delete schema ${a.schema_id ?? ''} and all its versions`,
  create_prompt: (a) => `Create prompt ${quoted(a.name)}${a.schema_id ? ` using schema ${a.schema_id}` : ''}`,
  update_prompt: (a) => `Save a new version of prompt ${a.prompt_id ?? ''}${a.name ? ` as ${quoted(a.name)}` : ''}`,
  delete_prompt: (a) => `Delete prompt ${a.prompt_id ?? ''}, its versions and their results`,
  run_extraction: (a) => `Run ${a.prompt_revid ? `prompt revision ${a.prompt_revid}` : 'the working prompt'}${onDocument(a)}`,
  update_extraction_field: (a) =>
    `Set ${typeof a.path === 'string' ? a.path : 'a field'} to ${JSON.stringify(a.value ?? null)}${onDocument(a)}`,
  update_document: (a) =>
    `Change ${a.document_id ? `document ${a.document_id}` : 'this document'}${a.document_name ? `: rename it ${quoted(a.document_name)}` : ''}${Array.isArray(a.tag_ids) ? `, tags: ${count(a.tag_ids.length, 'tag')}` : ''}`,
  delete_document: (a) => `Delete ${a.document_id ? `document ${a.document_id}` : 'this document'} for good`,
  create_tag: (a) => `Create tag ${quoted(a.name)}`,
  update_tag: (a) => `Change tag ${a.tag_id ?? ''}${a.name ? `: rename it ${quoted(a.name)}` : ''}`,
  delete_tag: (a) => `Delete tag ${a.tag_id ?? ''}`,
};

/** One line saying what a call does; the arguments summarized when there is no sentence for the tool. */
export function describeCall(name: string, args: unknown): string {
  const sentence = sentences[name];
  if (sentence && typeof args === 'object' && args !== null && !Array.isArray(args)) {
    return sentence(args as Args)
      .replace(/\s+/g, ' ')
      .trim();
  }
  return summarizeArguments(args);
}
