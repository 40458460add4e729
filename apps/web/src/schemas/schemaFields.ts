/**
 * A response_format's data fields as the field builder edits them, and back. Strict mode lists
 * every property in "required", so a field that is not required is written as one that may be
 * null (`"type": ["string", "null"]`). Keywords the builder has no control for (enum, pattern,
 * minimum...) are kept as they were; a property it cannot show at all is an "other" field, kept
 * whole and edited in the JSON.
 */

export type FieldType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'string-list'
  | 'number-list'
  | 'object'
  | 'object-list'
  | 'other';

export interface SchemaField {
  /** Stable while the field is edited (not saved), so that its row keeps its place and focus. */
  id: string;
  name: string;
  type: FieldType;
  description: string;
  /** Unticked: the model may answer null. */
  required: boolean;
  /** The sub-fields of an object, or of each object of a list. */
  fields: SchemaField[];
  /** Keywords the builder does not edit, written back as they were; for "other", the whole schema but its description. */
  kept: Record<string, unknown>;
}

type FieldsOfResult = { ok: true; fields: SchemaField[] } | { ok: false; reason: string };

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

let lastId = 0;
function newFieldId(): string {
  lastId += 1;
  return `field-${lastId}`;
}

/** "string" or ["string", "null"] in either order; anything else is not a type the builder shows. */
function baseType(type: unknown): { base: string; nullable: boolean } | undefined {
  if (typeof type === 'string' && type !== 'null') return { base: type, nullable: false };
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return undefined;
  const base = type.find((name) => name !== 'null');
  return typeof base === 'string' ? { base, nullable: true } : undefined;
}

function without(node: JsonObject, keys: string[]): JsonObject {
  return Object.fromEntries(Object.entries(node).filter(([key]) => !keys.includes(key)));
}

const ITEM_TYPES: Record<string, FieldType> = { string: 'string-list', number: 'number-list' };
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** The type and the keywords that are left when the builder reads the node as that type; undefined when it cannot. */
function readType(node: JsonObject, base: string): { type: FieldType; kept: JsonObject; properties?: JsonObject } | undefined {
  if (base === 'string' && node.format === 'date') return { type: 'date', kept: without(node, ['format']) };
  if (SCALAR_TYPES.has(base)) return { type: base as FieldType, kept: node };
  if (base === 'object' && isJsonObject(node.properties)) {
    return {
      type: 'object',
      kept: without(node, ['properties', 'required', 'additionalProperties']),
      properties: node.properties,
    };
  }
  if (base !== 'array' || !isJsonObject(node.items)) return undefined;
  const items = node.items;
  const kept = without(node, ['items']);
  const itemType = typeof items.type === 'string' ? items.type : undefined;
  const listType = itemType === undefined ? undefined : ITEM_TYPES[itemType];
  if (listType && Object.keys(items).length === 1) return { type: listType, kept };
  const objectKeys = ['type', 'properties', 'required', 'additionalProperties'];
  if (itemType === 'object' && isJsonObject(items.properties) && Object.keys(items).every((key) => objectKeys.includes(key))) {
    return { type: 'object-list', kept, properties: items.properties };
  }
  return undefined;
}

function readField(name: string, node: unknown, previous: SchemaField[], path: string): SchemaField | string {
  if (!isJsonObject(node)) return `${path}.${name} is not a schema object; make it one, such as {"type": "string"}.`;
  const match = previous.find((field) => field.name === name);
  const id = match?.id ?? newFieldId();
  const description = typeof node.description === 'string' ? node.description : '';
  const rest = typeof node.description === 'string' ? without(node, ['description']) : node;
  const typed = baseType(node.type);
  const read = typed && readType(without(rest, ['type']), typed.base);
  if (!typed || !read) {
    const nullable = Array.isArray(node.type) && node.type.includes('null');
    return { id, name, type: 'other', description, required: !nullable, fields: [], kept: rest };
  }
  const fields = read.properties === undefined ? [] : readProperties(read.properties, match?.fields ?? [], `${path}.${name}`);
  if (typeof fields === 'string') return fields;
  return { id, name, type: read.type, description, required: !typed.nullable, fields, kept: read.kept };
}

function readProperties(properties: JsonObject, previous: SchemaField[], path: string): SchemaField[] | string {
  const fields: SchemaField[] = [];
  for (const [name, node] of Object.entries(properties)) {
    const field = readField(name, node, previous, path);
    if (typeof field === 'string') return field;
    fields.push(field);
  }
  return fields;
}

/**
 * The fields of a response_format (parsed JSON), or why the builder cannot show them. Fields of
 * `previous` keep their ids where a field of the same name is found at the same place.
 */
export function fieldsOf(responseFormat: unknown, previous: SchemaField[] = []): FieldsOfResult {
  const schema =
    isJsonObject(responseFormat) && isJsonObject(responseFormat.json_schema) ? responseFormat.json_schema.schema : undefined;
  if (!isJsonObject(schema) || !isJsonObject(schema.properties)) {
    return {
      ok: false,
      reason:
        'The builder shows the fields of "json_schema.schema.properties"; write the response format around an object with "properties" to use it.',
    };
  }
  const fields = readProperties(schema.properties, previous, 'json_schema.schema.properties');
  return typeof fields === 'string' ? { ok: false, reason: fields } : { ok: true, fields };
}

/** The "properties", "required" and "additionalProperties" of an object with these fields. */
function objectBody(fields: SchemaField[]): JsonObject {
  return {
    properties: Object.fromEntries(fields.map((field) => [field.name, schemaOf(field)])),
    required: fields.map((field) => field.name),
    additionalProperties: false,
  };
}

function typeBody(field: SchemaField): JsonObject {
  const type = (name: string) => (field.required ? name : [name, 'null']);
  switch (field.type) {
    case 'date':
      return { type: type('string'), format: 'date' };
    case 'string-list':
      return { type: type('array'), items: { type: 'string' } };
    case 'number-list':
      return { type: type('array'), items: { type: 'number' } };
    case 'object':
      return { type: type('object'), ...objectBody(field.fields) };
    case 'object-list':
      return { type: type('array'), items: { type: 'object', ...objectBody(field.fields) } };
    default:
      return { type: type(field.type) };
  }
}

/** The JSON Schema of one field: its type first, its description, the keywords kept, then its items or properties. */
function schemaOf(field: SchemaField): JsonObject {
  if (field.type === 'other') return { ...field.kept, ...(field.description === '' ? {} : { description: field.description }) };
  const { items, properties, required, additionalProperties, ...head } = typeBody(field);
  const structure = Object.entries({ items, properties, required, additionalProperties }).filter(
    ([, value]) => value !== undefined,
  );
  return {
    ...head,
    ...(field.description === '' ? {} : { description: field.description }),
    ...field.kept,
    ...Object.fromEntries(structure),
  };
}

/** The response_format with its top-level fields replaced; its name, strictness and other keywords stay. */
export function withFields(responseFormat: JsonObject, fields: SchemaField[]): JsonObject {
  const envelope = isJsonObject(responseFormat.json_schema) ? responseFormat.json_schema : {};
  const schema = isJsonObject(envelope.schema) ? envelope.schema : {};
  const { properties, required } = objectBody(fields);
  return { ...responseFormat, json_schema: { ...envelope, schema: { ...schema, properties, required } } };
}

/** A new field of the list, named so that it differs from the others. */
export function newField(siblings: SchemaField[]): SchemaField {
  const names = new Set(siblings.map((field) => field.name));
  let n = siblings.length + 1;
  while (names.has(`field_${n}`)) n += 1;
  return { id: newFieldId(), name: `field_${n}`, type: 'string', description: '', required: true, fields: [], kept: {} };
}

const HAS_FIELDS = new Set<FieldType>(['object', 'object-list']);

/** The field as another type: sub-fields stay between an object and a list of objects; other keywords go with the old type. */
export function withType(field: SchemaField, type: FieldType): SchemaField {
  if (type === field.type) return field;
  const fields = HAS_FIELDS.has(type) ? (HAS_FIELDS.has(field.type) ? field.fields : [newField([])]) : [];
  return { ...field, type, fields, kept: {} };
}

/** The list with the field at `index` moved by `offset` places; unchanged when that leaves the list. */
export function moved<T>(list: T[], index: number, offset: number): T[] {
  const target = index + offset;
  const item = list[index];
  if (item === undefined || target < 0 || target >= list.length) return list;
  const rest = list.filter((_, at) => at !== index);
  return [...rest.slice(0, target), item, ...rest.slice(target)];
}

/** What is wrong with the name of the field at `index` among its siblings, if anything. */
export function nameProblem(siblings: SchemaField[], index: number): string | undefined {
  const name = siblings[index]?.name ?? '';
  if (name.trim() === '') return 'Enter a name for the field.';
  if (siblings.some((other, at) => at !== index && other.name === name)) {
    return `Another field here is also called “${name}”; give each field its own name.`;
  }
  return undefined;
}

/** Whether any field, at any depth, has a name that cannot be written to the JSON. */
export function hasNameProblems(fields: SchemaField[]): boolean {
  return fields.some((field, index) => nameProblem(fields, index) !== undefined || hasNameProblems(field.fields));
}
