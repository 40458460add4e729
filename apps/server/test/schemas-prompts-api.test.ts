import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
after(() => t.close());

type Body = Record<string, unknown>;
const keys = (o: unknown) => Object.keys(o as object).sort();
const SCHEMA_KEYS = ['created_at', 'created_by', 'name', 'response_format', 'schema_id', 'schema_revid', 'schema_version'];
const PROMPT_KEYS = [
  'content',
  'created_at',
  'created_by',
  'model',
  'name',
  'prompt_id',
  'prompt_revid',
  'prompt_version',
  'schema_id',
  'schema_version',
  'tag_ids',
];

function invoiceFormat(extra: Record<string, unknown> = {}) {
  const properties = { invoice_number: { type: 'string' }, total: { type: 'number' }, ...extra };
  return {
    type: 'json_schema',
    json_schema: {
      name: 'invoice',
      schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
      strict: true,
    },
  };
}

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  payload?: object,
  token = alice.token,
  org = alice.org.id,
) {
  return t.app.inject({
    method,
    url: `/v0/orgs/${org}${path}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload }),
  });
}

function ok(res: LightMyRequestResponse): Body {
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

describe('schemas', () => {
  test('create, version by name, read old revisions, list latest, update, no-change update, versions', async () => {
    const first = ok(await call('POST', '/schemas', { name: 'Invoice', response_format: invoiceFormat() }));
    assert.deepEqual(keys(first), SCHEMA_KEYS);
    assert.equal(first.schema_version, 1);
    assert.equal(first.created_by, 'alice@example.test');

    const second = ok(
      await call('POST', '/schemas', { name: 'Invoice', response_format: invoiceFormat({ currency: { type: 'string' } }) }),
    );
    assert.equal(second.schema_id, first.schema_id, 'the same name adds a version');
    assert.equal(second.schema_version, 2);
    assert.notEqual(second.schema_revid, first.schema_revid);

    const old = ok(await call('GET', `/schemas/${first.schema_revid}`));
    assert.deepEqual(old.response_format, invoiceFormat());

    const updated = ok(await call('PUT', `/schemas/${first.schema_id}`, { name: 'Invoice v3' }));
    assert.deepEqual([updated.schema_version, updated.name], [3, 'Invoice v3']);
    const same = ok(await call('PUT', `/schemas/${first.schema_id}`, { name: 'Invoice v3' }));
    assert.equal(same.schema_revid, updated.schema_revid, 'an update that changes nothing adds no version');

    ok(await call('POST', '/schemas', { name: 'Receipt', response_format: invoiceFormat() }));
    const list = ok(await call('GET', '/schemas?skip=0&limit=10'));
    assert.deepEqual(keys(list), ['schemas', 'skip', 'total_count']);
    assert.deepEqual((list.schemas as Body[]).map((s) => s.name).sort(), ['Invoice v3', 'Receipt'], 'only latest revisions');
    assert.equal(list.total_count, 2);
    const searched = ok(await call('GET', '/schemas?name_search=RECEI'));
    assert.deepEqual(
      (searched.schemas as Body[]).map((s) => s.name),
      ['Receipt'],
    );

    const versions = ok(await call('GET', `/schemas/${first.schema_id}/versions`));
    assert.deepEqual(
      (versions.schemas as Body[]).map((s) => s.schema_version),
      [3, 2, 1],
    );
  });

  test('an invalid schema is a 400 listing each problem with its path', async () => {
    const format = invoiceFormat();
    (format.json_schema.schema as Record<string, unknown>).additionalProperties = true;
    const res = await call('POST', '/schemas', { name: 'Broken', response_format: format });
    assert.equal(res.statusCode, 400);
    const body = json<{ detail: string; errors: Array<{ path: string; message: string }> }>(res);
    assert.match(body.detail, /The schema is not valid/);
    assert.ok(body.errors.some((e) => e.path === 'json_schema.schema.additionalProperties' && /must be false/.test(e.message)));
    const list = ok(await call('GET', '/schemas?name_search=Broken'));
    assert.equal(list.total_count, 0, 'nothing stored');
  });

  test('data is validated against a schema revision, with paths', async () => {
    const schema = ok(await call('POST', '/schemas', { name: 'Checked', response_format: invoiceFormat() }));
    const valid = ok(
      await call('POST', `/schemas/${schema.schema_revid}/validate`, { data: { invoice_number: 'A-1', total: 3.5 } }),
    );
    assert.deepEqual(valid, { valid: true, errors: [] });
    const invalid = ok(
      await call('POST', `/schemas/${schema.schema_revid}/validate`, { data: { invoice_number: 'A-1', total: 'lots' } }),
    );
    assert.equal(invalid.valid, false);
    assert.ok(
      (invalid.errors as string[]).some((e) => e.startsWith('total:')),
      String(invalid.errors),
    );
  });
});

describe('prompts', () => {
  test('prompts pin a schema version, version by name, and a schema in use cannot be deleted', async () => {
    const schema = ok(await call('POST', '/schemas', { name: 'Pinned', response_format: invoiceFormat() }));
    const prompt = ok(
      await call('POST', '/prompts', {
        name: 'Invoice fields',
        content: 'Extract the invoice number and total.',
        schema_id: schema.schema_id,
        model: 'openai:gpt-4.1-mini',
      }),
    );
    assert.deepEqual(keys(prompt), PROMPT_KEYS);
    assert.deepEqual(
      [prompt.schema_version, prompt.prompt_version, prompt.tag_ids],
      [1, 1, []],
      'the latest schema version is pinned',
    );

    ok(await call('POST', '/schemas', { name: 'Pinned', response_format: invoiceFormat({ due: { type: 'string' } }) }));
    const v2 = ok(
      await call('POST', '/prompts', { name: 'Invoice fields', content: 'Now with more care.', schema_id: schema.schema_id }),
    );
    assert.deepEqual([v2.prompt_id, v2.prompt_version, v2.schema_version], [prompt.prompt_id, 2, 2]);
    const pinnedOld = ok(await call('PUT', `/prompts/${prompt.prompt_id}`, { schema_version: 1 }));
    assert.deepEqual([pinnedOld.prompt_version, pinnedOld.schema_version, pinnedOld.content], [3, 1, 'Now with more care.']);
    const unchanged = ok(await call('PUT', `/prompts/${prompt.prompt_id}`, { content: 'Now with more care.' }));
    assert.equal(unchanged.prompt_revid, pinnedOld.prompt_revid);
    assert.equal(ok(await call('GET', `/prompts/${prompt.prompt_revid}`)).content, 'Extract the invoice number and total.');
    const versions = ok(await call('GET', `/prompts/${prompt.prompt_id}/versions`));
    assert.deepEqual(
      (versions.prompts as Body[]).map((p) => p.prompt_version),
      [3, 2, 1],
    );

    const refused = await call('DELETE', `/schemas/${schema.schema_id}`);
    assert.equal(refused.statusCode, 409);
    assert.match(json<{ detail: string }>(refused).detail, /Schema "Pinned" is used by prompt "Invoice fields"/);
    assert.deepEqual(ok(await call('DELETE', `/prompts/${prompt.prompt_id}`)), { message: 'Prompt deleted successfully' });
    assert.deepEqual(ok(await call('DELETE', `/schemas/${schema.schema_id}`)), { message: 'Schema deleted successfully' });
    assert.equal((await call('GET', `/schemas/${schema.schema_revid}`)).statusCode, 404);
  });

  test('unknown schemas, versions and tags, and bad model ids are refused with what to do', async () => {
    const schema = ok(await call('POST', '/schemas', { name: 'Small', response_format: invoiceFormat() }));
    const unknownSchema = await call('POST', '/prompts', { name: 'p', content: 'c', schema_id: 'nope' });
    assert.equal(unknownSchema.statusCode, 404);
    const unknownVersion = await call('POST', '/prompts', {
      name: 'p',
      content: 'c',
      schema_id: schema.schema_id,
      schema_version: 9,
    });
    assert.equal(unknownVersion.statusCode, 404);
    assert.match(json<{ detail: string }>(unknownVersion).detail, /Version 9 of schema/);
    const unknownTag = await call('POST', '/prompts', { name: 'p', content: 'c', tag_ids: ['no-such-tag'] });
    assert.equal(unknownTag.statusCode, 400);
    assert.match(json<{ detail: string }>(unknownTag).detail, /no-such-tag/);
    const badModel = await call('POST', '/prompts', { name: 'p', content: 'c', model: 'gpt 4 please' });
    assert.equal(badModel.statusCode, 400);
  });

  test('prompts are listed by name and by tags', async () => {
    const tag = ok(await call('POST', '/tags', { name: 'invoices', color: '#336699' }));
    ok(await call('POST', '/prompts', { name: 'Tagged prompt', content: 'x', tag_ids: [tag.id] }));
    ok(await call('POST', '/prompts', { name: 'Plain prompt', content: 'y' }));
    const byTag = ok(await call('GET', `/prompts?tag_ids=${tag.id}`));
    assert.deepEqual(
      (byTag.prompts as Body[]).map((p) => p.name),
      ['Tagged prompt'],
    );
    const byName = ok(await call('GET', '/prompts?name_search=plain'));
    assert.deepEqual(keys(byName), ['prompts', 'skip', 'total_count']);
    assert.deepEqual(
      (byName.prompts as Body[]).map((p) => p.name),
      ['Plain prompt'],
    );
  });
});

test("another organization's schemas and prompts are 404", async () => {
  const schema = ok(await call('POST', '/schemas', { name: 'Private', response_format: invoiceFormat() }));
  const prompt = ok(await call('POST', '/prompts', { name: 'Private prompt', content: 'z' }));
  const attempts: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string, object?]> = [
    ['GET', `/schemas/${schema.schema_revid}`],
    ['PUT', `/schemas/${schema.schema_id}`, { name: 'Stolen' }],
    ['DELETE', `/schemas/${schema.schema_id}`],
    ['GET', `/schemas/${schema.schema_id}/versions`],
    ['POST', `/schemas/${schema.schema_revid}/validate`, { data: {} }],
    ['GET', `/prompts/${prompt.prompt_revid}`],
    ['PUT', `/prompts/${prompt.prompt_id}`, { content: 'Stolen' }],
    ['DELETE', `/prompts/${prompt.prompt_id}`],
    ['GET', `/prompts/${prompt.prompt_id}/versions`],
  ];
  for (const [method, path, payload] of attempts) {
    const res = await call(method, path, payload, bob.token, bob.org.id);
    assert.equal(res.statusCode, 404, `${method} ${path}`);
  }
  const usingOthersSchema = await call(
    'POST',
    '/prompts',
    { name: 'q', content: 'q', schema_id: schema.schema_id },
    bob.token,
    bob.org.id,
  );
  assert.equal(usingOthersSchema.statusCode, 404);
});
