/**
 * Checks user schemas (DocRouter "response_format" objects) and data against them.
 * A schema is untrusted input that later drives an LLM in strict structured-output mode, so it
 * must be small, valid draft-07 and within the strict subset; every problem is reported with a
 * dot path and a message a person or a model can act on.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { invalidInput } from '../errors.ts';
import { newSchemaAjv } from './schema-ajv.ts';
import { isJsonObject, strictSchemaProblems } from './strict-schema-rules.ts';

export interface SchemaProblem {
  /** Dot path from the response_format root (or from the data root), array indexes as numbers; "" is the root. */
  path: string;
  message: string;
}

export type ResponseFormat = {
  type: 'json_schema';
  json_schema: { name: string; schema: Record<string, unknown>; strict: true };
};

/**
 * Depth counts JSON objects and arrays inside each other from the response_format root. Each data
 * level of a schema takes two ("properties" and the property) and a nullable "anyOf" two more, so 32
 * leaves room for the 10 data levels OpenAI accepts while keeping every later recursion shallow.
 */
export const SCHEMA_LIMITS: { maxBytes: number; maxDepth: number; maxProperties: number } = Object.freeze({
  maxBytes: 100_000,
  maxDepth: 32,
  maxProperties: 500,
});

/** Beyond this many problems the rest add noise, not help. */
const MAX_PROBLEMS = 100;
const SCHEMA_PATH = 'json_schema.schema';
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const metaSchemaAjv = newSchemaAjv();
/** Keyed by the object validateResponseFormat returned (or a caller passed), so entries go with it. */
const validators = new WeakMap<ResponseFormat, ValidateFunction>();

export function validateResponseFormat(
  input: unknown,
): { valid: true; responseFormat: ResponseFormat } | { valid: false; errors: SchemaProblem[] } {
  const limitProblems = checkLimits(input);
  if (limitProblems.length > 0) return { valid: false, errors: limitProblems };

  const { problems, name, schema } = checkEnvelope(input);
  if (schema === undefined) return { valid: false, errors: capped(problems) };

  // Where both report the same spot (a bad "type"), the strict rule says more precisely what to write.
  const strictProblems = strictSchemaProblems(schema, SCHEMA_PATH);
  const strictPaths = new Set(strictProblems.map((p) => p.path));
  problems.push(...metaSchemaProblems(schema).filter((p) => !strictPaths.has(p.path)), ...strictProblems);
  if (problems.length > 0 || name === undefined) return { valid: false, errors: capped(problems) };

  // A copy, so later changes to the caller's object cannot desynchronise the cached validator.
  const responseFormat: ResponseFormat = {
    type: 'json_schema',
    json_schema: { name, schema: structuredClone(schema), strict: true },
  };
  try {
    validators.set(responseFormat, compile(responseFormat.json_schema.schema));
  } catch (error) {
    return { valid: false, errors: [{ path: SCHEMA_PATH, message: `cannot be compiled: ${(error as Error).message}` }] };
  }
  return { valid: true, responseFormat };
}

export function validateAgainstSchema(
  responseFormat: ResponseFormat,
  data: unknown,
): { valid: boolean; errors: SchemaProblem[] } {
  let validate = validators.get(responseFormat);
  if (validate === undefined) {
    try {
      validate = compile(responseFormat.json_schema.schema);
    } catch (error) {
      throw invalidInput(
        `Schema "${responseFormat.json_schema.name}" cannot be compiled (${(error as Error).message}); check it with validate_schema and fix it.`,
      );
    }
    validators.set(responseFormat, validate);
  }
  try {
    if (validate(data)) return { valid: true, errors: [] };
  } catch (error) {
    // A recursive "$ref" follows the data down, so absurdly deep data can exhaust the stack.
    if (!(error instanceof RangeError)) throw error;
    return { valid: false, errors: [{ path: '', message: 'nests too deeply to check; flatten the data' }] };
  }
  return { valid: false, errors: capped(dedupe((validate.errors ?? []).map(dataProblem))) };
}

/** A fresh Ajv per schema: a shared one would keep every compiled user schema alive in its cache. */
function compile(schema: Record<string, unknown>): ValidateFunction {
  return newSchemaAjv().compile(schema);
}

interface Frame {
  value: unknown;
  depth: number;
  /** "map" is the object under "properties"; "data" is a value under enum/const/default, never a schema. */
  kind: 'schema' | 'map' | 'data';
}

const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/** Size, depth and property count in one iterative pass: nothing recursive touches the input before it. */
function checkLimits(input: unknown): SchemaProblem[] {
  let bytes = 0;
  let depth = 0;
  let properties = 0;
  const seen = new WeakSet<object>();
  const stack: Frame[] = [{ value: input, depth: 1, kind: 'schema' }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { value } = frame;
    if (typeof value !== 'object' || value === null) {
      // JSON.stringify throws on a bigint and skips undefined; neither comes from parsed JSON.
      bytes += Buffer.byteLength(typeof value === 'bigint' ? String(value) : (JSON.stringify(value) ?? 'null'));
      continue;
    }
    if (seen.has(value)) continue; // parsed JSON shares nothing; this only stops cycles
    seen.add(value);
    depth = Math.max(depth, frame.depth);
    const entries = Array.isArray(value)
      ? value.map((v): [string | undefined, unknown] => [undefined, v])
      : Object.entries(value);
    bytes += 2 + Math.max(entries.length - 1, 0);
    if (frame.kind === 'map') properties += entries.length;
    for (const [key, child] of entries) {
      if (key !== undefined) bytes += Buffer.byteLength(JSON.stringify(key)) + 1;
      stack.push({ value: child, depth: frame.depth + 1, kind: childKind(frame.kind, key) });
    }
  }
  const { maxBytes, maxDepth, maxProperties } = SCHEMA_LIMITS;
  const problems: SchemaProblem[] = [];
  if (bytes > maxBytes) {
    problems.push({
      path: '',
      message: `The schema is ${bytes} bytes; the limit is ${maxBytes}. Split it into smaller schemas or shorten its descriptions.`,
    });
  }
  if (depth > maxDepth) {
    problems.push({
      path: '',
      message: `The schema nests ${depth} levels deep (objects and arrays inside each other); the limit is ${maxDepth}. Flatten it, or define repeated parts once under "$defs" and refer to them with "$ref".`,
    });
  }
  if (properties > maxProperties) {
    problems.push({
      path: '',
      message: `The schema has ${properties} properties in total; the limit is ${maxProperties}. Remove some or split it into several schemas.`,
    });
  }
  return problems;
}

function childKind(parent: Frame['kind'], key: string | undefined): Frame['kind'] {
  if (parent === 'map') return 'schema';
  if (parent === 'data' || (key !== undefined && DATA_KEYWORDS.has(key))) return 'data';
  return key === 'properties' ? 'map' : 'schema';
}

const ENVELOPE_EXAMPLE = '{"type": "json_schema", "json_schema": {"name": "invoice", "schema": {...}, "strict": true}}';

/** The response_format wrapper. The schema is returned whenever it is an object, so its own checks can still run. */
function checkEnvelope(input: unknown): { problems: SchemaProblem[]; name?: string; schema?: Record<string, unknown> } {
  if (!isJsonObject(input)) return { problems: [{ path: '', message: `must be an object like ${ENVELOPE_EXAMPLE}` }] };
  const problems: SchemaProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (input.type !== 'json_schema') add('type', `must be "json_schema" (it is ${JSON.stringify(input.type) ?? 'missing'})`);
  for (const key of Object.keys(input)) {
    if (key !== 'type' && key !== 'json_schema') add(key, 'is not allowed; a response format has only "type" and "json_schema"');
  }
  const inner = input.json_schema;
  if (!isJsonObject(inner)) {
    add('json_schema', `must be an object with "name", "schema" and "strict": true, as in ${ENVELOPE_EXAMPLE}`);
    return { problems };
  }
  for (const key of Object.keys(inner)) {
    if (key === 'name' || key === 'schema' || key === 'strict') continue;
    add(
      `json_schema.${key}`,
      key === 'description'
        ? 'is not allowed here; put the description in "json_schema.schema.description"'
        : 'is not allowed; "json_schema" has only "name", "schema" and "strict"',
    );
  }
  const name = typeof inner.name === 'string' && NAME_PATTERN.test(inner.name) ? inner.name : undefined;
  if (typeof inner.name !== 'string' || inner.name === '') {
    add('json_schema.name', 'is required: 1 to 64 letters, digits, "_" or "-", e.g. "invoice"');
  } else if (name === undefined) {
    add(
      'json_schema.name',
      `must be 1 to 64 letters, digits, "_" or "-" (it is ${JSON.stringify(inner.name.slice(0, 80))}), e.g. "invoice_v2"`,
    );
  }
  if (inner.strict !== true) add('json_schema.strict', `must be true (it is ${JSON.stringify(inner.strict) ?? 'missing'})`);
  if (!isJsonObject(inner.schema)) {
    add(
      SCHEMA_PATH,
      'must be a JSON Schema object, e.g. {"type": "object", "properties": {...}, "required": [...], "additionalProperties": false}',
    );
    return { problems, name };
  }
  return { problems, name, schema: inner.schema };
}

/** Draft-07 meta-schema errors, one problem per path (Ajv reports each failed "anyOf" branch separately). */
function metaSchemaProblems(schema: Record<string, unknown>): SchemaProblem[] {
  const validateMeta = metaSchemaAjv.getSchema('http://json-schema.org/draft-07/schema');
  // The meta-schema is given explicitly: a "$schema" in user input must not pick another one.
  if (validateMeta === undefined || validateMeta(schema)) return [];
  const byPath = new Map<string, string[]>();
  for (const error of validateMeta.errors ?? []) {
    if (error.keyword === 'anyOf') continue;
    const path = joinPath(SCHEMA_PATH, pointerToPath(error.instancePath));
    const messages = byPath.get(path) ?? [];
    const message = describe(error);
    if (!messages.includes(message)) messages.push(message);
    byPath.set(path, messages);
  }
  return [...byPath].map(([path, messages]) => ({ path, message: `${messages.join(' or ')} (draft-07)` }));
}

function dataProblem(error: ErrorObject): SchemaProblem {
  const path = pointerToPath(error.instancePath);
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty);
    return { path: joinPath(path, name), message: `required property "${name}" is missing` };
  }
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty);
    return { path: joinPath(path, name), message: `property "${name}" is not in the schema; remove it` };
  }
  return { path, message: describe(error) };
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'enum' && Array.isArray(error.params.allowedValues)) {
    return `must be one of ${error.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (error.keyword === 'type') return `must be ${String(error.params.type).split(',').join(' or ')}`;
  return error.message ?? `fails "${error.keyword}"`;
}

/** "/line_items/0/a~1b" → "line_items.0.a/b". */
function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

const joinPath = (base: string, rest: string) => (base === '' ? rest : rest === '' ? base : `${base}.${rest}`);

function dedupe(problems: SchemaProblem[]): SchemaProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\n${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function capped(problems: SchemaProblem[]): SchemaProblem[] {
  if (problems.length <= MAX_PROBLEMS) return problems;
  const rest = problems.length - MAX_PROBLEMS;
  return [...problems.slice(0, MAX_PROBLEMS), { path: '', message: `and ${rest} more problems; fix the ones above first` }];
}
