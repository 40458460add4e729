/**
 * What kind of editor each value of a result calls for: from the prompt's schema when it says,
 * else from the value itself. A shape says what the value should be; the drafts decide what to do
 * with a value that does not fit it.
 */

export type ScalarType = 'string' | 'date' | 'number' | 'integer' | 'boolean';

export interface ScalarShape {
  kind: 'scalar';
  type: ScalarType;
  /** The value may be null: an empty input means null. */
  nullable: boolean;
}

export type FieldShape =
  | ScalarShape
  | { kind: 'list'; item: ScalarShape; nullable: boolean }
  /** A list of objects, edited as rows; the columns are the objects' keys. */
  | { kind: 'table'; columns: [name: string, shape: FieldShape][]; nullable: boolean }
  | { kind: 'object'; fields: [name: string, shape: FieldShape][]; nullable: boolean }
  /** Anything else, edited as JSON. */
  | { kind: 'json' };

type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date as YYYY-MM-DD, the one form a date input takes. */
export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
}

const JSON_SHAPE: FieldShape = { kind: 'json' };
/** "$ref"s may point at each other; past this many the schema is not read further. */
const MAX_REFS = 20;

function resolveRef(ref: string, root: JsonObject): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isJsonObject(node) ? node[key] : undefined;
  }
  return node;
}

/** The shape a JSON Schema node describes; undefined when it describes none the form can edit. */
function schemaShape(node: unknown, root: JsonObject, refs = 0): FieldShape | undefined {
  if (!isJsonObject(node)) return undefined;
  if (typeof node.$ref === 'string')
    return refs < MAX_REFS ? schemaShape(resolveRef(node.$ref, root), root, refs + 1) : undefined;
  if (Array.isArray(node.anyOf)) {
    const others = node.anyOf.filter((branch) => !(isJsonObject(branch) && branch.type === 'null'));
    const inner = others.length === 1 && node.anyOf.length === 2 ? schemaShape(others[0], root, refs) : undefined;
    return inner && inner.kind !== 'json' ? { ...inner, nullable: true } : undefined;
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const nullable = types.includes('null');
  const named = types.filter((type) => type !== 'null');
  if (named.length !== 1) return undefined;
  const [type] = named;
  switch (type) {
    case 'string':
      return { kind: 'scalar', type: node.format === 'date' ? 'date' : 'string', nullable };
    case 'number':
    case 'integer':
    case 'boolean':
      return { kind: 'scalar', type, nullable };
    case 'array': {
      const item = schemaShape(node.items, root, refs);
      if (item?.kind === 'scalar') return { kind: 'list', item, nullable };
      if (item?.kind === 'object') return { kind: 'table', columns: item.fields.map(cellShape), nullable };
      return undefined;
    }
    case 'object': {
      const properties = isJsonObject(node.properties) ? node.properties : {};
      const fields = Object.entries(properties).map(([name, child]): [string, FieldShape] => [
        name,
        schemaShape(child, root, refs) ?? JSON_SHAPE,
      ]);
      return { kind: 'object', fields, nullable };
    }
    default:
      return undefined;
  }
}

/** A table cell holds one scalar; anything bigger in it is edited as JSON. */
function cellShape([name, shape]: [string, FieldShape]): [string, FieldShape] {
  return [name, shape.kind === 'scalar' ? shape : JSON_SHAPE];
}

const scalar = (type: ScalarType, nullable = false): ScalarShape => ({ kind: 'scalar', type, nullable });

/** The shape a value suggests when no schema says. */
export function valueShape(value: unknown): FieldShape {
  if (value === null || value === undefined) return scalar('string', true);
  if (typeof value === 'string') return scalar(isIsoDate(value) ? 'date' : 'string');
  if (typeof value === 'number') return scalar('number');
  if (typeof value === 'boolean') return scalar('boolean');
  if (Array.isArray(value)) return arrayShape(value);
  if (isJsonObject(value))
    return { kind: 'object', fields: Object.entries(value).map(([name, v]) => [name, valueShape(v)]), nullable: false };
  return JSON_SHAPE;
}

function arrayShape(items: unknown[]): FieldShape {
  if (items.length > 0 && items.every(isJsonObject)) {
    const names = [...new Set(items.flatMap((item) => Object.keys(item)))];
    const columns = names.map((name): [string, FieldShape] => {
      const sample = items.map((item) => item[name]).find((v) => v !== null && v !== undefined);
      return cellShape([name, sample === undefined ? scalar('string', true) : valueShape(sample)]);
    });
    return { kind: 'table', columns, nullable: false };
  }
  // An empty list most often holds texts (names, facts); a list of mixed values is shown as it is.
  if (items.length === 0) return { kind: 'list', item: scalar('string'), nullable: false };
  const types = new Set(items.map((item) => valueShape(item)).map((shape) => (shape.kind === 'scalar' ? shape.type : 'other')));
  // Dates among other texts are texts.
  if (types.size === 2 && types.has('date') && types.has('string')) types.delete('date');
  const [type] = types;
  return types.size === 1 && type !== 'other' && type !== undefined
    ? { kind: 'list', item: scalar(type), nullable: false }
    : JSON_SHAPE;
}

/**
 * The shape of each top-level value of a result: the schema's, where it describes the field (the
 * root of a response_format's "json_schema.schema", or undefined), else the value's own.
 */
export function resultShapes(values: JsonObject, schema: unknown): Map<string, FieldShape> {
  const root = isJsonObject(schema) ? schema : {};
  const properties = isJsonObject(root.properties) ? root.properties : {};
  return new Map(Object.entries(values).map(([name, value]) => [name, schemaShape(properties[name], root) ?? valueShape(value)]));
}
