import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_JSON_DEPTH } from '../src/http/input-hygiene.ts';
import { bearer, json, multipartBody, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let docId: string;
let bobsDocId: string;

const org = () => `/v0/orgs/${alice.org.id}`;
const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const SURROGATE_MESSAGE = /contains a lone UTF-16 surrogate, which is not Unicode text; send valid UTF-8\./;

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = alice.token) {
  return t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A JSON body sent as written: light-my-request cannot stringify 5,000 levels itself. */
function callRaw(method: 'POST' | 'PUT', url: string, body: string) {
  return t.app.inject({ method, url, headers: { ...bearer(alice.token), 'content-type': 'application/json' }, payload: body });
}

function uploadMultipart(form: { payload: Buffer; headers: Record<string, string> }) {
  return t.app.inject({
    method: 'POST',
    url: `${org()}/documents/multipart`,
    headers: { ...bearer(alice.token), ...form.headers },
    payload: form.payload,
  });
}

const detailOf = (res: LightMyRequestResponse) => json<{ detail: string }>(res).detail;

function assertRefused(res: LightMyRequestResponse, status: number, detail: RegExp | string): void {
  assert.equal(res.statusCode, status, res.body);
  const body = json<{ detail: string; code: string }>(res);
  if (typeof detail === 'string') assert.equal(body.detail, detail);
  else assert.match(body.detail, detail);
}

async function documentCount(): Promise<number> {
  return json<{ total_count: number }>(await call('GET', `${org()}/documents`)).total_count;
}

async function uploadText(name: string, token: string, orgId: string): Promise<string> {
  const res = await call(
    'POST',
    `/v0/orgs/${orgId}/documents`,
    { documents: [{ name, content: Buffer.from('hello\n').toString('base64') }] },
    token,
  );
  assert.equal(res.statusCode, 200, res.body);
  return json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id ?? '';
}

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  docId = await uploadText('note.txt', alice.token, alice.org.id);
  bobsDocId = await uploadText('bobs.txt', bob.token, bob.org.id);
});
after(() => t.close());

describe('NUL characters and lone surrogates are refused with the field that holds them', () => {
  test('in JSON bodies: tags, schemas, prompts, metadata, thread titles, preferences, chat, uploads', async () => {
    const cases: Array<[string, 'POST' | 'PUT', string, unknown, string]> = [
      ['tag name', 'POST', `${org()}/tags`, { name: NUL }, 'body.name'],
      ['schema name', 'POST', `${org()}/schemas`, { name: NUL, response_format: strictResponseFormat({}) }, 'body.name'],
      ['prompt name', 'POST', `${org()}/prompts`, { name: NUL, content: 'Extract.' }, 'body.name'],
      ['document metadata', 'PUT', `${org()}/documents/${docId}`, { metadata: { note: NUL } }, 'body.metadata.note'],
      ['thread title', 'POST', `${org()}/documents/${docId}/chat/threads`, { title: NUL }, 'body.title'],
      ['preference', 'PUT', '/v0/account/preferences/layout', { value: { left: NUL } }, 'body.value.left'],
      [
        'chat message',
        'POST',
        `${org()}/documents/${docId}/chat`,
        { messages: [{ role: 'user', content: NUL }] },
        'body.messages.0.content',
      ],
      [
        'uploaded file name',
        'POST',
        `${org()}/documents`,
        { documents: [{ name: `${NUL}.txt`, content: 'aGk=' }] },
        'body.documents.0.name',
      ],
    ];
    for (const [label, method, url, payload, field] of cases) {
      const res = await call(method, url, payload);
      assertRefused(res, 400, `${field}: contains a NUL character (U+0000); remove it.`);
      assert.equal(json<{ code: string }>(res).code, 'invalid_input', label);
    }
  });

  test('a lone surrogate in metadata, preferences or chat content', async () => {
    const cases: Array<['POST' | 'PUT', string, unknown, string]> = [
      ['PUT', `${org()}/documents/${docId}`, { metadata: { note: LONE_SURROGATE } }, 'body.metadata.note'],
      ['PUT', '/v0/account/preferences/layout', { value: LONE_SURROGATE }, 'body.value'],
      [
        'POST',
        `${org()}/documents/${docId}/chat`,
        { messages: [{ role: 'user', content: '\udc00' }] },
        'body.messages.0.content',
      ],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await call(method, url, payload);
      assertRefused(res, 400, new RegExp(`^${field.replaceAll('.', '\\.')}: ${SURROGATE_MESSAGE.source}$`));
    }
  });

  test('in object keys, named by the object holding them', async () => {
    const res = await call('PUT', `${org()}/documents/${docId}`, { metadata: { [NUL]: 'x' } });
    assertRefused(res, 400, 'body.metadata: the key "a\\u0000b" contains a NUL character (U+0000); remove it.');
  });

  test('in query strings and path parameters, before anything reads them', async () => {
    assertRefused(
      await call('GET', `${org()}/documents?name_search=%00`),
      400,
      'query.name_search: contains a NUL character (U+0000); remove it.',
    );
    assertRefused(await call('GET', `${org()}/documents/%00`), 400, /^params\.document_id: contains a NUL character/);
    assertRefused(await call('GET', `/v0/orgs/a%00b/documents`), 400, /^params\.organization_id: contains a NUL character/);
    // Before authentication too: the organization id is read from the path to check membership.
    const anonymous = await t.app.inject({ method: 'GET', url: `${org()}/tags?name_search=%00` });
    assertRefused(anonymous, 400, /^query\.name_search: contains a NUL character/);
    const token = await t.app.inject({ method: 'GET', url: '/v0/account/token/organization?token=%00' });
    assertRefused(token, 400, /^query\.token: contains a NUL character/);
  });

  test('well-formed text, including characters outside the BMP, is kept as sent', async () => {
    const note = 'Zürich 😀 \u2028 tab\tend';
    assert.equal((await call('PUT', `${org()}/documents/${docId}`, { metadata: { note } })).statusCode, 200);
    const doc = json<{ metadata: Record<string, string> }>(
      await call('GET', `${org()}/documents/${docId}?include_content=false`),
    );
    assert.equal(doc.metadata.note, note);
  });
});

describe(`JSON bodies nest at most ${MAX_JSON_DEPTH} levels`, () => {
  const nested = (levels: number) => `{"value":${'['.repeat(levels)}${']'.repeat(levels)}}`;

  test('a preference of 5,000 nested arrays is refused without overflowing the stack', async () => {
    const res = await callRaw('PUT', '/v0/account/preferences/deep', nested(5000));
    assertRefused(res, 400, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays; flatten it\\.$`));
    assert.match(detailOf(res), /^body\.value\.0\.0/);
  });

  test(`${MAX_JSON_DEPTH} levels, the body object included, pass; one more does not`, async () => {
    assert.equal((await callRaw('PUT', '/v0/account/preferences/deep', nested(MAX_JSON_DEPTH - 1))).statusCode, 204);
    assert.equal((await callRaw('PUT', '/v0/account/preferences/deep', nested(MAX_JSON_DEPTH))).statusCode, 400);
  });
});

describe('malformed ids in the path are "not found", like unknown ones', () => {
  test('a document, an organization and a prompt revision', async () => {
    assertRefused(
      await call('GET', `${org()}/documents/not-an-id`),
      404,
      'document_id "not-an-id" was not found: ids are 24 hexadecimal characters; use one the API returned.',
    );
    assertRefused(await call('GET', '/v0/orgs/not-an-org/tags'), 404, /^organization_id "not-an-org" was not found/);
    assertRefused(await call('GET', `${org()}/prompts/x'%20OR%201=1`), 404, /^prompt_revid "x' OR 1=1" was not found/);
    assertRefused(await call('GET', `${org()}/documents/${'0'.repeat(24)}`), 404, /^Document 0{24} was not found/);
  });

  test('"default" still names the default prompt', async () => {
    assert.equal((await call('GET', `${org()}/prompts/default`)).statusCode, 200);
  });

  test("a path Fastify's router cannot decode gets our error body and headers too", async () => {
    const res = await call('GET', `${org()}/documents/%ED%A0%80`);
    assertRefused(res, 400, /^The URL is not valid: a part of its path is not percent-encoded UTF-8/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });
});

describe('malformed multipart bodies are a 400 saying what is wrong', () => {
  test('no boundary, or one too long to search for', async () => {
    const res = await uploadMultipart({ payload: Buffer.from('files=1'), headers: { 'content-type': 'multipart/form-data' } });
    assertRefused(res, 400, /has no boundary parameter/);
    const tooLong = await uploadMultipart({
      payload: Buffer.from('x'),
      headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(300)}` },
    });
    assertRefused(tooLong, 400, /boundary is too long/);
  });

  test('an unterminated part, and a form cut before its closing boundary', async () => {
    const form = multipartBody([{ name: 'files', filename: 'a.txt', value: 'hello\n' }]);
    const cutInFile = await uploadMultipart({ ...form, payload: form.payload.subarray(0, form.payload.indexOf('hello') + 3) });
    assertRefused(cutInFile, 400, /ended before its closing boundary/);
    const cutAtEnd = await uploadMultipart({ ...form, payload: form.payload.subarray(0, form.payload.length - 4) });
    assertRefused(cutAtEnd, 400, /ended before its closing boundary/);
    assert.equal(await documentCount(), 1, 'nothing of a refused upload is kept');
  });

  test('NUL and lone surrogates in form fields', async () => {
    const metadata = await uploadMultipart(
      multipartBody([
        { name: 'metadata', value: JSON.stringify({ note: NUL }) },
        { name: 'files', filename: 'a.txt', value: 'hello\n' },
      ]),
    );
    assertRefused(metadata, 400, `metadata.note: contains a NUL character (U+0000); remove it.`);
    const escaped = await uploadMultipart(
      multipartBody([
        { name: 'metadata', value: '{"note":"\\ud800"}' },
        { name: 'files', filename: 'a.txt', value: 'hello\n' },
      ]),
    );
    assertRefused(escaped, 400, /^metadata\.note: contains a lone UTF-16 surrogate/);
    const tagIds = await uploadMultipart(
      multipartBody([
        { name: 'tag_ids', value: NUL },
        { name: 'files', filename: 'a.txt', value: 'hello\n' },
      ]),
    );
    assertRefused(tagIds, 400, 'tag_ids: contains a NUL character (U+0000); remove it.');
  });
});

describe('file names follow one rule, in JSON and multipart uploads alike', () => {
  test('paths, "." and ".." are refused naming the file, never reduced', async () => {
    for (const name of ['../../etc/passwd', 'C:\\Users\\me\\a.txt', 'dir/a.txt', '.', '..', `x${'\u0000'}.txt`]) {
      const asJson = await call('POST', `${org()}/documents`, {
        documents: [{ name, content: Buffer.from('hello\n').toString('base64') }],
      });
      const asForm = await uploadMultipart(multipartBody([{ name: 'files', filename: name, value: 'hello\n' }]));
      assert.equal(asForm.statusCode, 400, `${JSON.stringify(name)} as multipart: ${asForm.body}`);
      assert.equal(asJson.statusCode, 400, `${JSON.stringify(name)} as JSON: ${asJson.body}`);
      if (!name.includes('\u0000')) assert.equal(detailOf(asForm), detailOf(asJson), 'the same message either way');
      assert.ok(detailOf(asForm).includes(JSON.stringify(name)), `the message names ${JSON.stringify(name)}`);
    }
    assert.equal(await documentCount(), 1);
  });

  test('renaming follows the same rule', async () => {
    assertRefused(await call('PUT', `${org()}/documents/${docId}`, { document_name: '..' }), 400, /"\.\." is not a file name/);
  });
});

describe("a missing or another organization's document is 404 on every document route", () => {
  test('extraction results and chat threads', async () => {
    const missing = '0'.repeat(24);
    for (const id of [missing, bobsDocId]) {
      assertRefused(await call('GET', `${org()}/llm/results/${id}`), 404, `Document ${id} was not found.`);
      assertRefused(await call('GET', `${org()}/documents/${id}/chat/threads`), 404, `Document ${id} was not found.`);
    }
    assert.deepEqual(json(await call('GET', `${org()}/llm/results/${docId}`)), { results: [] });
    assert.deepEqual(json(await call('GET', `${org()}/documents/${docId}/chat/threads`)), { threads: [] });
  });
});
