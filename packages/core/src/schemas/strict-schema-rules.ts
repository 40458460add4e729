/**
 * The rules of OpenAI structured outputs ("strict": true) that draft-07 itself does not impose.
 * The walker runs after the size and depth limits, so plain recursion is safe, and after the
 * meta-schema check, but it must still tolerate malformed values (a `type` of 5, a string
 * `required`): it reports only what it understands and leaves the rest to the meta-schema.
 */
import { patternProblem } from './schema-ajv.ts';
import type { SchemaProblem } from './schema-validation.ts';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  '$ref',
  '$defs',
  'definitions',
  'default',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
]);

/**
 * What to write instead of an unsupported keyword, where there is an obvious alternative.
 * A Map, not an object literal: a "then" key would make the object look like a promise.
 */
const INSTEAD = new Map<string, string>([
  ['oneOf', 'use "anyOf" instead'],
  ['allOf', 'merge the subschemas into one schema, or use "anyOf" if any one of them is enough'],
  ['not', 'remove it and state the restriction in "description"'],
  ['if', 'use "anyOf" with one subschema per case'],
  ['then', 'use "anyOf" with one subschema per case'],
  ['else', 'use "anyOf" with one subschema per case'],
  ['patternProperties', 'list the keys in "properties", or use an array of {"key", "value"} objects for open-ended keys'],
  ['additionalItems', 'remove it; "items" must be a single schema'],
  ['propertyNames', 'list the keys in "properties"'],
  ['dependencies', 'list every property in "required" and explain the dependency in "description"'],
  ['dependentRequired', 'list every property in "required" and explain the dependency in "description"'],
  ['dependentSchemas', 'list every property in "required" and explain the dependency in "description"'],
  ['uniqueItems', 'remove it and say that items must be unique in "description"'],
  ['contains', 'remove it and say what the array must contain in "description"'],
  ['minProperties', 'remove it; every property is required anyway'],
  ['maxProperties', 'remove it; every property is required anyway'],
  ['examples', 'remove it or put the examples in "description"'],
  ['$comment', 'remove it or use "description"'],
  ['$id', 'remove it; refer to parts of this schema with "$ref": "#/$defs/<name>"'],
  ['$schema', 'remove it; the schema is always read as draft-07'],
]);

/** Names people and models often use for JSON Schema types. */
const TYPE_HINTS: Record<string, string> = {
  int: 'integer',
  float: 'number',
  double: 'number',
  decimal: 'number',
  str: 'string',
  text: 'string',
  date: 'string (with "format": "date")',
  datetime: 'string (with "format": "date-time")',
  bool: 'boolean',
  list: 'array',
  dict: 'object',
};

type Json = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const typesOf = (schema: Json): string[] =>
  typeof schema.type === 'string'
    ? [schema.type]
    : Array.isArray(schema.type)
      ? schema.type.filter((t) => typeof t === 'string')
      : [];

const quoted = (value: unknown) => JSON.stringify(value);

/** Every strict-mode problem in the schema at `json_schema.schema`. */
export function strictSchemaProblems(schema: Json, basePath: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  checkRoot(schema, basePath, add);
  walk(schema, basePath, { root: schema, add });
  return problems;
}

type Add = (path: string, message: string) => void;

function checkRoot(schema: Json, path: string, add: Add): void {
  if ('anyOf' in schema) {
    add(
      `${path}.anyOf`,
      'the root schema cannot be "anyOf"; make the root {"type": "object"} and put the alternatives in one of its properties',
    );
  } else if (schema.type !== 'object') {
    add(
      `${path}.type`,
      `the root schema must have "type": "object" (it has ${schema.type === undefined ? 'none' : quoted(schema.type)}); wrap the value in a property, e.g. {"type": "object", "properties": {"value": <your schema>}, "required": ["value"], "additionalProperties": false}`,
    );
  }
}

interface WalkContext {
  root: Json;
  add: Add;
}

function walk(schema: unknown, path: string, context: WalkContext): void {
  if (typeof schema === 'boolean') {
    context.add(path, `must be a schema object; ${schema} is not supported in strict mode (use {} with a "type")`);
    return;
  }
  if (!isJsonObject(schema)) return;
  for (const key of Object.keys(schema)) {
    if (!KEYWORDS.has(key)) {
      context.add(`${path}.${key}`, `"${key}" is not supported in strict mode; ${INSTEAD.get(key) ?? 'remove it'}`);
    }
  }
  checkType(schema, path, context.add);
  const types = typesOf(schema);
  if (types.includes('object') || 'properties' in schema) checkObject(schema, path, context.add);
  if (types.includes('array') || 'items' in schema) checkArray(schema, path, context.add);
  if ('$ref' in schema) checkRef(schema.$ref, `${path}.$ref`, context);
  if (typeof schema.pattern === 'string') checkPattern(schema.pattern, `${path}.pattern`, context.add);

  for (const keyword of ['properties', '$defs', 'definitions']) {
    const children = schema[keyword];
    if (isJsonObject(children))
      for (const [name, child] of Object.entries(children)) walk(child, `${path}.${keyword}.${name}`, context);
  }
  if (isJsonObject(schema.items)) walk(schema.items, `${path}.items`, context);
  if (Array.isArray(schema.anyOf)) {
    for (const [i, child] of schema.anyOf.entries()) walk(child, `${path}.anyOf.${i}`, context);
  }
}

function checkType(schema: Json, path: string, add: Add): void {
  const { type } = schema;
  if (type === undefined) return;
  const names = Array.isArray(type) ? type : [type];
  for (const name of names) {
    if (typeof name === 'string' && TYPES.has(name)) continue;
    const hint = typeof name === 'string' ? TYPE_HINTS[name.toLowerCase()] : undefined;
    add(
      `${path}.type`,
      `${quoted(name)} is not a type; ${hint ? `use ${hint}, or ` : 'use '}one of string, number, integer, boolean, object, array, null (or a list such as ["string", "null"] for a value that may be missing)`,
    );
  }
}

function checkObject(schema: Json, path: string, add: Add): void {
  if (!('additionalProperties' in schema)) {
    add(path, 'object schemas need "additionalProperties": false');
  } else if (schema.additionalProperties !== false) {
    add(
      `${path}.additionalProperties`,
      `must be false in strict mode (it is ${quoted(schema.additionalProperties)}); list every allowed key in "properties"`,
    );
  }
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  const missing = properties.filter((name) => !required.includes(name));
  if (missing.length > 0) {
    add(
      path,
      `"required" must list every property; missing: ${missing.join(', ')}. For a value that may be absent, keep it required and allow null, e.g. "type": ["string", "null"]`,
    );
  }
  const unknown = required.filter((name) => !properties.includes(name));
  if (unknown.length > 0) {
    add(
      `${path}.required`,
      `names ${unknown.join(', ')}, not in "properties"; add them to "properties" or remove them from "required"`,
    );
  }
}

function checkArray(schema: Json, path: string, add: Add): void {
  if (!('items' in schema)) {
    add(path, 'array schemas need "items", the schema of each element, e.g. "items": {"type": "string"}');
  } else if (Array.isArray(schema.items)) {
    add(
      `${path}.items`,
      'must be one schema, not a list (tuples are not supported); use an object with named properties instead',
    );
  }
}

/** Only references inside this schema resolve: strict mode has no way to fetch another one. */
function checkRef(ref: unknown, path: string, context: WalkContext): void {
  if (typeof ref !== 'string') return;
  if (ref === '#' || (ref.startsWith('#/') && resolvePointer(context.root, ref.slice(2)) !== undefined)) return;
  context.add(
    path,
    `${quoted(ref)} does not point inside this schema; define the part under "$defs" and use e.g. "$ref": "#/$defs/address"`,
  );
}

function resolvePointer(root: Json, pointer: string): unknown {
  let node: unknown = root;
  for (const raw of pointer.split('/')) {
    const key = decodeSegment(raw);
    if (isJsonObject(node) && Object.hasOwn(node, key)) node = node[key];
    else if (Array.isArray(node) && /^\d+$/.test(key)) node = node[Number(key)];
    else return undefined;
  }
  return node;
}

const decodeSegment = (segment: string): string => {
  const unescaped = segment.replaceAll('~1', '/').replaceAll('~0', '~');
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped; // a stray "%" is a literal character, not an escape
  }
};

/** Checked here, before Ajv compiles it, to report the problem at the pattern's own path. */
function checkPattern(pattern: string, path: string, add: Add): void {
  const problem = patternProblem(pattern);
  if (problem !== undefined) add(path, problem);
}
