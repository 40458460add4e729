/**
 * What a tool's result is, for showing it to a person: a schema, a prompt, extracted values, a tag,
 * a list of things, a query's rows, or a plain message. Decided from the result's own keys (they are the API's),
 * so a tool of another pack with the same shapes is shown the same way.
 */
export type ResultShape =
  | { kind: 'schema'; schemaRevid: string; name: string; version: number | null; responseFormat: unknown; message: string | null }
  | {
      kind: 'prompt';
      promptRevid: string;
      name: string;
      version: number | null;
      schemaRevid: string | null;
      model: string | null;
      message: string | null;
    }
  | {
      kind: 'extraction';
      promptRevid: string | null;
      promptName: string | null;
      values: unknown;
      change: { path: string; previous: unknown; value: unknown } | null;
    }
  | { kind: 'extractions'; results: Array<{ promptRevid: string | null; promptName: string | null; values: unknown }> }
  | { kind: 'tag'; id: string; name: string; color: string | null; message: string | null }
  | { kind: 'list'; what: ListKind; items: ListItem[]; total: number | null }
  | {
      kind: 'rows';
      columns: string[];
      /** The first ROWS_SHOWN rows: a card is no place for the whole result, the dataset's run history has it. */
      rows: unknown[][];
      rowCount: number;
      sql: string | null;
    }
  | { kind: 'web'; query: string; provider: string | null; results: WebResult[] }
  | {
      kind: 'note';
      name: string;
      version: number | null;
      deleted: boolean;
      /** Lines added and removed by a rewrite. */
      change: { additions: number; deletions: number } | null;
    }
  | { kind: 'message'; text: string }
  | { kind: 'unknown' };

export interface WebResult {
  title: string;
  url: string;
  snippet: string;
}

export const ROWS_SHOWN = 20;

export type ListKind = 'schemas' | 'prompts' | 'tags' | 'documents' | 'notes';

export interface ListItem {
  /** The resource link's kind and id, when the item has one. */
  href: string | null;
  name: string;
  detail: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function listItem(what: ListKind, item: unknown): ListItem | null {
  if (!isObject(item)) return null;
  switch (what) {
    case 'schemas':
      return {
        href: text(item.schema_revid) && `schema:${item.schema_revid}`,
        name: text(item.name) ?? 'Unnamed schema',
        detail: number(item.schema_version) === null ? null : `v${item.schema_version}`,
      };
    case 'prompts':
      return {
        href: text(item.prompt_revid) && `prompt:${item.prompt_revid}`,
        name: text(item.name) ?? 'Unnamed prompt',
        detail: number(item.prompt_version) === null ? null : `v${item.prompt_version}`,
      };
    case 'notes':
      return {
        href: null,
        name: text(item.name) ?? 'Unnamed note',
        detail: number(item.version) === null ? null : `v${item.version} · ${number(item.size) ?? 0} characters`,
      };
    case 'tags':
      return { href: text(item.id) && `tag:${item.id}`, name: text(item.name) ?? 'Unnamed tag', detail: text(item.description) };
    default:
      return {
        href: text(item.id) && `document:${item.id}`,
        name: text(item.document_name) ?? text(item.name) ?? 'Unnamed document',
        detail: text(item.state),
      };
  }
}

/** The response_format of a schema result, or of the call that wrote it (create/update return no copy). */
function responseFormatOf(result: Json, args: unknown): unknown {
  if (result.response_format !== undefined) return result.response_format;
  return isObject(args) ? args.response_format : undefined;
}

export function shapeOfResult(result: unknown, args: unknown): ResultShape {
  if (!isObject(result))
    return typeof result === 'string' && result !== '' ? { kind: 'message', text: result } : { kind: 'unknown' };
  const message = text(result.message);

  if (Array.isArray(result.columns) && Array.isArray(result.rows)) {
    return {
      kind: 'rows',
      columns: result.columns.map((column) => (isObject(column) ? (text(column.name) ?? '') : String(column))),
      rows: result.rows.slice(0, ROWS_SHOWN).filter(Array.isArray),
      rowCount: number(result.row_count) ?? result.rows.length,
      // The plan tools answer the SQL they compiled; execute_sql's is the call's own.
      sql: text(result.compiled_sql) ?? (isObject(args) ? text(args.sql) : null),
    };
  }
  if ('updated_llm_result' in result) {
    const path = text(result.path);
    return {
      kind: 'extraction',
      promptRevid: text(result.prompt_revid),
      promptName: text(result.prompt_name),
      values: result.updated_llm_result,
      change: path === null ? null : { path, previous: result.previous_value ?? null, value: result.value ?? null },
    };
  }
  if (Array.isArray(result.results) && typeof result.query === 'string') {
    return {
      kind: 'web',
      query: result.query,
      provider: text(result.provider),
      results: result.results.filter(isObject).map((entry) => ({
        title: text(entry.title) ?? text(entry.url) ?? 'Untitled',
        url: text(entry.url) ?? '',
        snippet: text(entry.snippet) ?? '',
      })),
    };
  }
  if (text(result.note_id) && text(result.name)) {
    const additions = number(result.additions);
    const deletions = number(result.deletions);
    return {
      kind: 'note',
      name: text(result.name) ?? '',
      version: number(result.version),
      deleted: result.deleted === true,
      change: additions === null || deletions === null ? null : { additions, deletions },
    };
  }
  if (Array.isArray(result.results)) {
    return {
      kind: 'extractions',
      results: result.results.filter(isObject).map((entry) => ({
        promptRevid: text(entry.prompt_revid),
        promptName: text(entry.prompt_name),
        values: entry.updated_llm_result,
      })),
    };
  }
  for (const what of ['schemas', 'prompts', 'tags', 'documents', 'notes'] as const) {
    const items = result[what];
    if (Array.isArray(items)) {
      return {
        kind: 'list',
        what,
        items: items.map((item) => listItem(what, item)).filter((item): item is ListItem => item !== null),
        total: number(result.total_count),
      };
    }
  }
  const schemaRevid = text(result.schema_revid);
  const promptRevid = text(result.prompt_revid);
  if (promptRevid && text(result.prompt_id)) {
    return {
      kind: 'prompt',
      promptRevid,
      name: text(result.name) ?? 'Unnamed prompt',
      version: number(result.prompt_version),
      schemaRevid,
      model: text(result.model),
      message,
    };
  }
  if (schemaRevid && text(result.schema_id)) {
    return {
      kind: 'schema',
      schemaRevid,
      name: text(result.name) ?? 'Unnamed schema',
      version: number(result.schema_version),
      responseFormat: responseFormatOf(result, args),
      message,
    };
  }
  const id = text(result.id);
  if (id && text(result.name) && 'color' in result) {
    return { kind: 'tag', id, name: text(result.name) ?? '', color: text(result.color), message };
  }
  return message ? { kind: 'message', text: message } : { kind: 'unknown' };
}

export interface SchemaFieldRow {
  /** Dotted for nested fields: `line_items[].amount`. */
  name: string;
  type: string;
  description: string;
  required: boolean;
}

/** A JSON Schema type as a person says it: "text", "number or empty", "list of objects". */
function typeOf(schema: Json): string {
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : null;
  if (variants) {
    const named = variants.filter((variant) => variant.type !== 'null').map(typeOf);
    const nullable = variants.length > named.length;
    return `${named.join(' or ')}${nullable ? ' or empty' : ''}`;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const nullable = types.includes('null');
  const type = types.find((candidate) => candidate !== 'null');
  let label: string;
  if (type === 'string') label = schema.format === 'date' ? 'date' : schema.format === 'date-time' ? 'date and time' : 'text';
  else if (type === 'array') label = `list of ${isObject(schema.items) ? plural(typeOf(schema.items)) : 'values'}`;
  else if (type === 'integer') label = 'whole number';
  else if (type === 'boolean') label = 'yes/no';
  else label = typeof type === 'string' ? type : 'any';
  if (Array.isArray(schema.enum)) label = `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  return nullable ? `${label} or empty` : label;
}

const plural = (label: string) => (label === 'text' ? 'texts' : label.endsWith('s') ? label : `${label}s`);

function rowsOf(schema: Json, prefix: string, into: SchemaFieldRow[]): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    into.push({
      name: `${prefix}${name}`,
      type: typeOf(property),
      description: text(property.description) ?? '',
      required: required.includes(name),
    });
    if (isObject(property.properties)) rowsOf(property, `${prefix}${name}.`, into);
    if (isObject(property.items) && isObject(property.items.properties)) rowsOf(property.items, `${prefix}${name}[].`, into);
  }
}

/** The fields a response_format declares, nested ones after their parent; [] for anything else. */
export function schemaFieldRows(responseFormat: unknown): SchemaFieldRow[] {
  let value = responseFormat;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const schema = isObject(value) && isObject(value.json_schema) ? value.json_schema.schema : undefined;
  const rows: SchemaFieldRow[] = [];
  if (isObject(schema)) rowsOf(schema, '', rows);
  return rows;
}
