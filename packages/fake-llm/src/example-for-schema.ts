/**
 * A minimal JSON value that satisfies a JSON Schema: strings "example", numbers 0, booleans false, arrays [],
 * objects with all required properties, `anyOf`/`oneOf` → first non-null branch. `const`, `enum`, local `$ref`s,
 * `minimum`/`minItems`/`minLength` and common string formats are honoured.
 */
type Schema = Record<string, unknown>;

const MAX_DEPTH = 32;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
  let node: unknown = root;
  for (const part of parts) {
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function isNullSchema(schema: unknown): boolean {
  return isSchema(schema) && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.every((t) => t === 'null')));
}

const formatExamples: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  email: 'example@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
};

function stringExample(schema: Schema): string {
  const format = typeof schema.format === 'string' ? formatExamples[schema.format] : undefined;
  let value = format ?? 'example';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  if (value.length < min) value = value.padEnd(min, 'x');
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}

function numberExample(schema: Schema, integer: boolean): number {
  let value = 0;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = integer ? Math.ceil(schema.minimum) : schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    value = Math.floor(schema.exclusiveMinimum) + 1;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = integer ? Math.floor(schema.maximum) : schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    value = Math.ceil(schema.exclusiveMaximum) - 1;
  return value;
}

function example(schema: unknown, root: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH || !isSchema(schema)) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') return example(resolveRef(root, schema.$ref), root, depth + 1);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const branch = branches.find((candidate) => !isNullSchema(candidate)) ?? branches[0];
      return example(branch, root, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    const merged: Schema = {};
    const properties: Schema = {};
    const required: string[] = [];
    for (const part of schema.allOf) {
      const resolved = isSchema(part) && typeof part.$ref === 'string' ? resolveRef(root, part.$ref) : part;
      if (!isSchema(resolved)) continue;
      Object.assign(merged, resolved);
      if (isSchema(resolved.properties)) Object.assign(properties, resolved.properties);
      if (Array.isArray(resolved.required)) required.push(...resolved.required.filter((name) => typeof name === 'string'));
    }
    const { allOf: _allOf, ...rest } = schema;
    return example({ ...merged, ...rest, properties, required }, root, depth + 1);
  }

  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null') ?? 'null';
  if (type === undefined) {
    if (isSchema(schema.properties) || Array.isArray(schema.required)) type = 'object';
    else if ('items' in schema || 'prefixItems' in schema) type = 'array';
  }
  switch (type) {
    case 'string':
      return stringExample(schema);
    case 'number':
      return numberExample(schema, false);
    case 'integer':
      return numberExample(schema, true);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
      const minItems = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, prefix.length);
      const items: unknown[] = [];
      for (let i = 0; i < minItems; i++) items.push(example(i < prefix.length ? prefix[i] : schema.items, root, depth + 1));
      return items;
    }
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((name): name is string => typeof name === 'string')
        : [];
      const value: Record<string, unknown> = {};
      for (const name of required) value[name] = example(properties[name] ?? {}, root, depth + 1);
      return value;
    }
    default:
      return null;
  }
}

export function exampleForSchema(schema: unknown): unknown {
  return example(schema, schema, 0);
}
