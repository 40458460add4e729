import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/** POST /schemas/infer through the fake provider: one strict schema from several samples. */

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    DOCAGENT_DEFAULT_MODEL: 'openai:gpt-4.1',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await fake.close();
});

const base = (org = alice.org.id) => `/v0/orgs/${org}`;
const call = (method: 'GET' | 'POST', url: string, payload?: object, token = alice.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function uploadText(name: string, text: string, who = alice): Promise<string> {
  const res = await call(
    'POST',
    `${base(who.org.id)}/documents`,
    { documents: [{ name, content: Buffer.from(text).toString('base64') }] },
    who.token,
  );
  assert.equal(res.statusCode, 200, res.body);
  const id = json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id as string;
  for (let i = 0; i < 600; i++) {
    const doc = json<{ state: string }>(
      await call('GET', `${base(who.org.id)}/documents/${id}?include_content=false`, undefined, who.token),
    );
    if (doc.state !== 'uploaded' && doc.state !== 'ocr_processing') return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} never got its text`);
}

/** The fake model lists fields by which sample it reads (the inference calls carry a "fields" schema). */
function listsFields(r: RecordedRequest) {
  const body = JSON.stringify(r.body);
  if (!body.includes('You design extraction schemas')) return { text: JSON.stringify({ summary: 'x' }) };
  const fields = [
    { name: 'invoice_number', type: 'string', description: 'The invoice number', item_fields: [] },
    { name: 'total', type: body.includes('ACME') ? 'integer' : 'number', description: 'Total due', item_fields: [] },
    ...(body.includes('PO-77') ? [{ name: 'po_number', type: 'string', description: 'Purchase order', item_fields: [] }] : []),
    {
      name: 'line_items',
      type: 'list',
      description: 'Rows',
      item_fields: [
        { name: 'description', type: 'string', description: '' },
        ...(body.includes('ACME') ? [{ name: 'qty', type: 'integer', description: '' }] : []),
      ],
    },
  ];
  return { text: JSON.stringify({ fields }) };
}

describe('schema inference', () => {
  test('three samples give one strict schema: a field only one has may be null; it can be saved as it is', async () => {
    const ids = [
      await uploadText('acme.txt', 'ACME invoice 1001, total 120'),
      await uploadText('globex.txt', 'Globex invoice G-7, PO-77, total 99.50'),
      await uploadText('initech.txt', 'Initech invoice I-3, total 10.00'),
    ];
    fake.setHandler(listsFields);
    const res = await call('POST', `${base()}/schemas/infer`, { document_ids: ids, name: 'invoice' });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<{
      response_format: { json_schema: { name: string; schema: { properties: Record<string, { type: unknown }> } } };
      fields: Array<{
        name: string;
        type: string;
        present_in: number;
        nullable: boolean;
        item_fields?: Array<{ name: string; nullable: boolean }>;
      }>;
      documents: number;
    }>(res);
    assert.equal(body.documents, 3);
    assert.equal(fake.requests.filter((r) => JSON.stringify(r.body).includes('You design extraction schemas')).length, 3);
    assert.deepEqual(
      body.fields.map((f) => [f.name, f.type, f.present_in, f.nullable]),
      [
        ['invoice_number', 'string', 3, false],
        ['total', 'number', 3, false],
        ['line_items', 'list', 3, false],
        ['po_number', 'string', 1, true],
      ],
    );
    assert.deepEqual(
      body.fields.find((f) => f.name === 'line_items')?.item_fields?.map((f) => [f.name, f.nullable]),
      [
        ['description', false],
        ['qty', true],
      ],
    );
    const properties = body.response_format.json_schema.schema.properties;
    assert.deepEqual(properties.po_number?.type, ['string', 'null']);
    const saved = await call('POST', `${base()}/schemas`, { name: 'Inferred invoice', response_format: body.response_format });
    assert.equal(saved.statusCode, 200, saved.body);
  });

  test('bad requests: none or too many documents, another organization’s document, a provider failure', async () => {
    assert.equal((await call('POST', `${base()}/schemas/infer`, { document_ids: [] })).statusCode, 400);
    const many = Array.from({ length: 11 }, (_, i) => `${'a'.repeat(23)}${i % 10}`);
    assert.equal((await call('POST', `${base()}/schemas/infer`, { document_ids: many })).statusCode, 400);
    const theirs = await uploadText('theirs.txt', 'Bob invoice', bob);
    assert.equal((await call('POST', `${base()}/schemas/infer`, { document_ids: [theirs] })).statusCode, 404);
    const mine = await uploadText('mine.txt', 'Alice invoice 5, total 3');
    fake.setHandler(() => ({ kind: 'error', status: 500, message: 'boom' }));
    const failed = await call('POST', `${base()}/schemas/infer`, { document_ids: [mine] });
    assert.equal(failed.statusCode, 502, failed.body);
  });
});
