import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiToken, createUser, setMembership } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * Every input of every route, read from the app's own OpenAPI document, gets hostile values:
 * NUL, a lone surrogate, 10,000 characters and deeply nested JSON in each string field of a
 * JSON body, and NUL, invalid UTF-8 and 10,000 characters in each query and path parameter.
 * None may answer 5xx; NUL and nesting must be refused naming the field. Other inputs of the
 * request are plausible (real ids of a seeded organization), so it gets as far as it can.
 *
 * Every route is sent to, login and logout included (a throttled login is a 429; logging out
 * with an API token ends nothing). Not covered here: the multipart upload's form (it has no
 * JSON body; input-hygiene.test.ts sends it broken forms) and the Last-Event-ID header (a
 * number, or a 400).
 */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  enum?: unknown[];
  minLength?: number;
  minimum?: number;
  minItems?: number;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: Schema }> };
}

/** Where a poison goes in a body: property names, `[]` an array's item, `{}` a record's value, `{key}` its key. */
type Site = string[];

interface Poison {
  label: string;
  value: unknown;
  /** What the refusal says, when the input layer must refuse it (naming the field). */
  refusal?: RegExp;
}

const nested = (levels: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

const BODY_POISONS: Poison[] = [
  { label: 'NUL', value: 'a\u0000b', refusal: /contains a NUL character/ },
  { label: 'lone surrogate', value: 'a\ud800b', refusal: /contains a lone UTF-16 surrogate/ },
  { label: '10,000 characters', value: 'x'.repeat(10_000) },
  { label: '1,000 nested arrays', value: nested(1000), refusal: /nested deeper than 64 levels/ },
  { label: '40 nested arrays', value: nested(40) },
];

const URL_POISONS: Array<{ label: string; encoded: string; refusal?: RegExp }> = [
  { label: 'NUL', encoded: '%00', refusal: /contains a NUL character/ },
  // A lone surrogate has no UTF-8 form; this is how one arrives percent-encoded.
  { label: 'encoded lone surrogate', encoded: '%ED%A0%80' },
  { label: '10,000 characters', encoded: 'x'.repeat(10_000) },
];

/** An id of our shape that names nothing (turns and runs cannot be made without a provider). */
const UNKNOWN_ID = '6a0000000000000000000001';

let t: TestApp;
let member: Awaited<ReturnType<typeof seedMember>>;
let openapi: { paths: Record<string, Record<string, Operation>> };
/** Plausible values of fields and path parameters by name; ids are real ones of `member`'s organization. */
let samples: Record<string, unknown>;
let pathValues: Record<string, string>;

/** Sends `payload` as JSON, whatever it is (a bare string or 1,000 nested arrays included). */
async function send(method: string, url: string, payload?: unknown) {
  const headers = { ...bearer(member.token), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) };
  return t.app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function created(method: string, url: string, payload: unknown, field: string): Promise<string> {
  const res = await send(method, url, payload);
  assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
  const body = json(res) as Record<string, unknown>;
  const value = field.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], body);
  return String(value);
}

before(async () => {
  // A secret on both databases alike, so that provider keys are stored rather than refused for want of one.
  t = await startTestApp({ DOCAGENT_SECRET: 'no-500-test-secret-of-16+-characters' });
  member = await seedMember(t.database, 'hygiene');
  const org = `/v0/orgs/${member.org.id}`;
  const documentId = await created(
    'POST',
    `${org}/documents`,
    { documents: [{ name: 'note.txt', content: Buffer.from('hello\n').toString('base64') }] },
    'documents.0.document_id',
  );
  const tagId = await created('POST', `${org}/tags`, { name: 'probe' }, 'id');
  const responseFormat = strictResponseFormat({ total: { type: 'number' } });
  const schema = json<{ schema_id: string; schema_revid: string }>(
    await send('POST', `${org}/schemas`, { name: 'probe', response_format: responseFormat }),
  );
  const prompt = json<{ prompt_id: string; prompt_revid: string }>(
    await send('POST', `${org}/prompts`, { name: 'probe', content: 'Extract the total.', schema_id: schema.schema_id }),
  );
  const threadId = await created('POST', `${org}/documents/${documentId}/chat/threads`, {}, 'thread_id');
  const datasetId = await created(
    'POST',
    `${org}/documents`,
    { documents: [{ name: 'probe.csv', content: Buffer.from('id,name\n1,a\n').toString('base64') }], create_dataset: 'probe' },
    'dataset.dataset_id',
  );
  const projectId = await created('POST', `${org}/projects`, { name: 'probe' }, 'project_id');
  const noteId = await created('POST', `${org}/projects/${projectId}/notes`, { name: 'probe', content: 'hello\n' }, 'note_id');
  const [toolName] = json<{ read_only: string[] }>(await send('GET', `${org}/documents/${documentId}/chat/tools`)).read_only;
  assert.ok(toolName, 'the agent has a read-only tool');
  // A token of its own for the revoke route, so that no request can revoke the one sending it.
  const spareToken = await createApiToken(t.database.db, { orgId: member.org.id, name: 'spare', createdBy: member.user.id });
  // A member of their own for the member routes, so that no request can remove or demote the one sending it.
  const spareUser = await createUser(t.database.db, { email: 'spare@example.test', password: 'a spare password' });
  await setMembership(t.database.db, { orgId: member.org.id, userId: spareUser.id, role: 'user' });
  pathValues = {
    organization_id: member.org.id,
    document_id: documentId,
    schema_id: schema.schema_id,
    schema_revid: schema.schema_revid,
    prompt_id: prompt.prompt_id,
    prompt_revid: prompt.prompt_revid,
    tag_id: tagId,
    thread_id: threadId,
    token_id: spareToken.id,
    user_id: spareUser.id,
    turn_id: UNKNOWN_ID,
    run_id: UNKNOWN_ID,
    batch_id: UNKNOWN_ID,
    rule_id: UNKNOWN_ID,
    webhook_id: UNKNOWN_ID,
    delivery_id: UNKNOWN_ID,
    evaluation_id: UNKNOWN_ID,
    // The two evaluations compared (query parameters).
    a: UNKNOWN_ID,
    b: UNKNOWN_ID,
    tool_name: toolName,
    provider: 'openai',
    key: 'layout',
    subject_kind: 'document',
    subject_id: documentId,
    dataset_id: datasetId,
    table_name: 'probe',
    project_id: projectId,
    note_id: noteId,
    version: '1',
    from: '1',
    to: '1',
  };
  samples = {
    email: 'hygiene@example.test',
    name: 'note.txt',
    content: Buffer.from('hello\n').toString('base64'),
    color: '#336699',
    tag_ids: [tagId],
    schema_id: schema.schema_id,
    thread_id: threadId,
    turn_id: UNKNOWN_ID,
    id: documentId,
    kind: 'document',
    token: member.token,
    prompt_revid: prompt.prompt_revid,
    document_id: documentId,
    response_format: responseFormat,
    data: { total: 1 },
    updated_llm_result: { total: 1 },
    value: { panel: 'left' },
    arguments: { note: 'x' },
    dataset_id: datasetId,
  };
  openapi = json(await t.app.inject({ method: 'GET', url: '/v0/openapi.json' }));
});
after(() => t.close());

/** The variant a request would take: the first that is not null. */
function chosen(schema: Schema): Schema {
  const variant = schema.anyOf?.find((s) => s.type !== 'null');
  return variant ? chosen(variant) : schema;
}

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** A schema for a sample value: its strings are constants, so the sample is what gets sent. */
function schemaOf(value: unknown): Schema {
  if (typeof value === 'string') return { type: 'string', enum: [value] };
  if (typeof value === 'number') return { type: 'number', enum: [value] };
  if (Array.isArray(value)) return { type: 'array', items: schemaOf(value[0]), minItems: value.length };
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return {
      type: 'object',
      properties: Object.fromEntries(entries.map(([k, v]) => [k, schemaOf(v)])),
      required: entries.map(([k]) => k),
    };
  }
  return { type: 'null' };
}

/** The schema a field is filled from: its sample's when there is one, else the declared one. Array items have no name. */
const effective = (schema: Schema, name: string): Schema => (name in samples ? schemaOf(samples[name]) : chosen(schema));

function plausible(declared: Schema, name: string): unknown {
  const schema = effective(declared, name);
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'string':
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return schema.minItems ? [plausible(schema.items ?? {}, '')] : [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((p) => [p, plausible(schema.properties?.[p] ?? {}, p)]));
    default:
      return {};
  }
}

/** Every place in a body a string (or any JSON value) goes. */
function sitesOf(declared: Schema, name: string, path: Site = []): Site[] {
  const schema = effective(declared, name);
  switch (typeOf(schema)) {
    case 'string':
      return [path];
    case 'array':
      return sitesOf(schema.items ?? {}, '', [...path, '[]']);
    case 'object': {
      const sites = Object.entries(schema.properties ?? {}).flatMap(([p, s]) => sitesOf(s, p, [...path, p]));
      const values = schema.additionalProperties;
      if (typeof values === 'object') sites.push([...path, '{key}'], ...sitesOf(values, 'k', [...path, '{}']));
      return sites;
    }
    case undefined:
      return [path];
    default:
      return [];
  }
}

/** A plausible body with `poison` at `site`. */
function bodyWith(declared: Schema, name: string, site: Site, poison: unknown): unknown {
  if (site.length === 0) return poison;
  const schema = effective(declared, name);
  const [head = '', ...rest] = site;
  if (head === '[]') return [bodyWith(schema.items ?? {}, '', rest, poison)];
  const values = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
  if (head === '{key}') return { [String(poison)]: plausible(values, 'k') };
  if (head === '{}') return { k: bodyWith(values, 'k', rest, poison) };
  const body = plausible(schema, name) as Record<string, unknown>;
  return { ...body, [head]: bodyWith(schema.properties?.[head] ?? {}, head, rest, poison) };
}

/** The field as the refusal names it. */
const fieldOf = (site: Site) =>
  ['body', ...site.map((s) => (s === '[]' ? '0' : s === '{}' ? 'k' : s))].join('.').replace(/\.\{key\}$/, '');

function urlOf(path: string, parameters: Parameter[], poisoned?: { name: string; encoded: string }): string {
  const value = (name: string) => {
    if (poisoned?.name === name) return poisoned.encoded;
    const known = pathValues[name] ?? (typeof samples[name] === 'string' ? (samples[name] as string) : undefined);
    assert.ok(known !== undefined, `no plausible value for parameter ${name}: add one to the test`);
    return encodeURIComponent(known);
  };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
  const query = parameters
    .filter((p) => p.in === 'query' && (p.required || poisoned?.name === p.name))
    .map((p) => `${p.name}=${value(p.name)}`);
  return query.length ? `${filled}?${query.join('&')}` : filled;
}

/**
 * The one 5xx allowed: a request valid enough to reach a model, in an app with no provider
 * configured, is told which variable to set (503, as when a provider is down).
 */
const isNoProviderAnswer = (res: Awaited<ReturnType<typeof send>>) =>
  res.statusCode === 503 && /^No LLM provider is configured/.test((json(res) as { detail?: string }).detail ?? '');

/**
 * The provider-key route goes last: a key it stores would make every later model call leave
 * the machine. Nothing else is ordered.
 */
const lastOf = (path: string) => (path.includes('/llm/providers/') ? 1 : 0);

test('no input answers 5xx, and NUL, lone surrogates and deep nesting are refused naming the field', async () => {
  const failures: string[] = [];
  let requests = 0;
  let refusals = 0;
  const check = (what: string, res: Awaited<ReturnType<typeof send>>, refusal?: { field: string; message: RegExp }) => {
    requests++;
    if (res.statusCode >= 500 && !isNoProviderAnswer(res)) {
      failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return;
    }
    if (!refusal) return;
    refusals++;
    const detail = res.statusCode === 400 ? (json(res) as { detail?: string }).detail : undefined;
    if (!detail?.startsWith(refusal.field) || !refusal.message.test(detail)) {
      failures.push(`${what}: expected a 400 naming ${refusal.field}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
  };

  const operations = Object.entries(openapi.paths)
    .flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ path, method, op })))
    .sort((a, b) => lastOf(a.path) - lastOf(b.path));
  assert.ok(operations.length > 60, `the OpenAPI document lists ${operations.length} operations`);

  for (const { path, method, op } of operations) {
    const parameters = (op.parameters ?? []).filter((p) => p.in !== 'header');
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    const body = bodySchema ? plausible(bodySchema, '') : undefined;

    for (const parameter of parameters) {
      for (const poison of URL_POISONS) {
        const what = `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name} = ${poison.label}`;
        const res = await send(method, urlOf(path, parameters, { name: parameter.name, encoded: poison.encoded }), body);
        const location = parameter.in === 'path' ? 'params' : 'query';
        check(what, res, poison.refusal && { field: `${location}.${parameter.name}:`, message: poison.refusal });
      }
    }

    if (!bodySchema) continue;
    const url = urlOf(path, parameters);
    for (const site of sitesOf(bodySchema, '')) {
      for (const poison of BODY_POISONS) {
        const isKey = site.at(-1) === '{key}';
        if (isKey && typeof poison.value !== 'string') continue;
        const what = `${method.toUpperCase()} ${path} ${fieldOf(site)}${isKey ? ' (a key)' : ''} = ${poison.label}`;
        const res = await send(method, url, bodyWith(bodySchema, '', site, poison.value));
        check(what, res, poison.refusal && { field: fieldOf(site), message: poison.refusal });
      }
    }
    for (const poison of [BODY_POISONS[0], BODY_POISONS[3]] as Poison[]) {
      const what = `${method.toUpperCase()} ${path} whole body = ${poison.label}`;
      check(what, await send(method, url, poison.value), poison.refusal && { field: 'body', message: poison.refusal });
    }
  }

  assert.deepEqual(failures, [], `${failures.length} of ${requests} requests failed`);
  assert.ok(requests > 500 && refusals > 300, `${requests} requests were sent, ${refusals} of them to be refused`);
  const me = await send('GET', '/v0/account/me');
  assert.equal(me.statusCode, 200, 'the token used throughout still works');
});
