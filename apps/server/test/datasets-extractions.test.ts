import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPrompt, createSchema, ensureDefaultPrompt, type PromptRevision, saveExtractionResult } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * The built-in `extractions` dataset over the HTTP API, on this build's own SQL executor: results
 * are stored through the core services (no LLM), and read back as tables by SQL.
 */

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
const docs: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };
let invoiceV1: PromptRevision;
let invoiceV2: PromptRevision;

interface Table {
  table_name: string;
  status: string;
  error: string | null;
  row_count: number;
  columns: Array<{ name: string; type: string }>;
}
interface Dataset {
  dataset_id: string;
  name: string;
  built_in: boolean;
  tables: Table[];
}
interface Run {
  dataset_id: string;
  status: string;
  result: { rows: unknown[][] } | null;
  error: { code: string; message: string } | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, path: string, payload?: unknown, who = alice) =>
  t.app.inject({
    method,
    url: `/v0/orgs/${who.org.id}${path}`,
    headers: bearer(who.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function ok<T>(res: Awaited<ReturnType<typeof call>>): Promise<T> {
  assert.equal(res.statusCode, 200, res.body);
  return json<T>(res);
}

async function sql(query: string, who = alice): Promise<Run> {
  return ok<Run>(await call('POST', '/runs', { dataset_id: 'extractions', query_type: 'sql', sql: query }, who));
}

async function rows(query: string): Promise<unknown[][]> {
  const run = await sql(query);
  assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
  return run.result?.rows ?? [];
}

const invoiceFormat = strictResponseFormat({
  vendor: { type: 'string' },
  total: { type: 'number' },
  invoice_date: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
  paid: { type: 'boolean' },
  address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  line_items: {
    type: 'array',
    items: {
      type: 'object',
      properties: { description: { type: 'string' }, amount: { type: 'number' } },
      required: ['description', 'amount'],
      additionalProperties: false,
    },
  },
});
const contractFormat = strictResponseFormat({
  party: { type: 'string' },
  months: { type: 'integer' },
  keywords: { type: 'array', items: { type: 'string' } },
});

const invoice = (vendor: string, total: number, date: string | null, items: Array<[string, number]>) => ({
  vendor,
  total,
  invoice_date: date,
  paid: total < 150,
  address: { city: 'Berlin' },
  line_items: items.map(([description, amount]) => ({ description, amount })),
});

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const uploaded = await ok<{ documents: Array<{ document_id: string }> }>(
    await call('POST', '/documents', {
      documents: ['a.txt', 'b.txt', 'c.txt'].map((name) => ({ name, content: Buffer.from(`${name} text`).toString('base64') })),
    }),
  );
  const [a, b, c] = uploaded.documents.map((d) => d.document_id);
  assert.ok(a && b && c, 'three documents stored');
  Object.assign(docs, { a, b, c });
  const db = t.database.db;
  const access = { orgId: alice.org.id, role: 'admin' as const, userId: alice.user.id };
  const invoiceSchema = await createSchema(db, access, { name: 'invoice', responseFormat: invoiceFormat });
  const contractSchema = await createSchema(db, access, { name: 'contract', responseFormat: contractFormat });
  const invoicePrompt = { name: 'Invoice fields', schemaId: invoiceSchema.schemaId };
  invoiceV1 = await createPrompt(db, access, { ...invoicePrompt, content: 'Extract the invoice.' });
  const contract = await createPrompt(db, access, {
    name: 'Contract terms!',
    content: 'Extract the terms.',
    schemaId: contractSchema.schemaId,
  });
  const save = (doc: string, prompt: PromptRevision, value: Record<string, unknown>) =>
    saveExtractionResult(db, alice.org.id, doc, prompt, 'test:model', value);
  await save(
    docs.a,
    invoiceV1,
    invoice('Acme', 100.5, '2024-03-01', [
      ['bolts', 60.5],
      ['nuts', 40],
    ]),
  );
  await save(docs.b, invoiceV1, invoice('Globex', 200, '2024-02-30', [['gears', 200]]));
  await save(docs.c, invoiceV1, invoice('Initech', 999, null, []));
  // A second revision's result stands for document c; a and b keep the first revision's.
  invoiceV2 = await createPrompt(db, access, { ...invoicePrompt, content: 'Extract the invoice, carefully.' });
  await save(docs.c, invoiceV2, invoice('Acme', 50, '2024-03-15', [['washers', 50]]));
  await save(docs.a, contract, { party: 'Acme', months: 12, keywords: ['renewal', 'penalty'] });
  await save(docs.b, contract, { party: 'Globex', months: 24, keywords: [] });
  // The default prompt has no schema: its tables follow what its answers hold.
  const summary = await ensureDefaultPrompt(db, alice.org.id);
  await save(docs.a, summary, { document_type: 'invoice', summary: 'An invoice.', key_facts: ['Acme', '100.50'] });
});
after(() => t.close());

describe('the extractions dataset', () => {
  test('is listed first, built in, with a table per prompt and one per list field', async () => {
    const page = await ok<{ datasets: Dataset[] }>(await call('GET', '/datasets'));
    const [builtIn] = page.datasets;
    assert.equal(builtIn?.dataset_id, 'extractions');
    assert.equal(builtIn?.name, 'extractions');
    assert.equal(builtIn?.built_in, true);
    assert.deepEqual(
      builtIn?.tables.map((tb) => [tb.table_name, tb.status, tb.row_count]),
      [
        ['contract_terms', 'ready', 2],
        ['contract_terms__keywords', 'ready', 2],
        ['document_summary', 'ready', 1],
        ['document_summary__key_facts', 'ready', 2],
        ['invoice_fields', 'ready', 3],
        ['invoice_fields__line_items', 'ready', 4],
      ],
    );
    assert.deepEqual(await ok<Dataset>(await call('GET', '/datasets/extractions')), builtIn);
  });

  test('its schema types the fields from the JSON Schema, or from the answers of a prompt without one', async () => {
    const schema = await ok<{ dataset_id: string; tables: Array<Table & { sample_rows: Array<Record<string, unknown>> }> }>(
      await call('GET', '/datasets/extractions/schema'),
    );
    assert.equal(schema.dataset_id, 'extractions');
    const table = (name: string) => schema.tables.find((tb) => tb.table_name === name);
    const types = (name: string) => table(name)?.columns.map((c) => `${c.name} ${c.type}`);
    assert.deepEqual(types('invoice_fields'), [
      'document_id VARCHAR',
      'document_name VARCHAR',
      'vendor VARCHAR',
      'total DOUBLE',
      'invoice_date DATE',
      'paid BOOLEAN',
      'address VARCHAR',
    ]);
    assert.deepEqual(types('invoice_fields__line_items'), [
      'document_id VARCHAR',
      'item_index BIGINT',
      'description VARCHAR',
      'amount DOUBLE',
    ]);
    assert.deepEqual(types('contract_terms'), ['document_id VARCHAR', 'document_name VARCHAR', 'party VARCHAR', 'months BIGINT']);
    assert.deepEqual(types('contract_terms__keywords'), ['document_id VARCHAR', 'item_index BIGINT', 'value VARCHAR']);
    assert.deepEqual(types('document_summary'), [
      'document_id VARCHAR',
      'document_name VARCHAR',
      'document_type VARCHAR',
      'summary VARCHAR',
    ]);
    assert.deepEqual(
      table('invoice_fields')?.sample_rows.find((r) => r.document_id === docs.a),
      {
        document_id: docs.a,
        document_name: 'a.txt',
        vendor: 'Acme',
        total: 100.5,
        invoice_date: '2024-03-01',
        paid: true,
        address: '{"city":"Berlin"}',
      },
    );
  });

  test('SQL reads the latest result per document, joins the tables and aggregates them', async () => {
    assert.deepEqual(await rows('SELECT document_name, vendor, invoice_date FROM invoice_fields ORDER BY document_name'), [
      ['a.txt', 'Acme', '2024-03-01'],
      ['b.txt', 'Globex', null],
      ['c.txt', 'Acme', '2024-03-15'],
    ]);
    assert.deepEqual(await rows('SELECT vendor, sum(total) AS billed FROM invoice_fields GROUP BY vendor ORDER BY vendor'), [
      ['Acme', 150.5],
      ['Globex', 200],
    ]);
    assert.deepEqual(
      await rows(`SELECT i.vendor, count(*) AS items, sum(l.amount) AS amount, max(c.months) AS months
        FROM invoice_fields i
        JOIN invoice_fields__line_items l USING (document_id)
        LEFT JOIN contract_terms c USING (document_id)
        GROUP BY i.vendor ORDER BY i.vendor`),
      [
        ['Acme', 3, 150.5, 12],
        ['Globex', 1, 200, 24],
      ],
    );
  });

  test('a changed result is seen by the next query; runs are listed under extractions', async () => {
    const edited = invoice('Acme', 200, '2024-02-01', [['gears', 200]]);
    await ok(await call('PUT', `/llm/result/${docs.b}?prompt_revid=${invoiceV1.promptRevid}`, { updated_llm_result: edited }));
    assert.deepEqual(await rows('SELECT vendor, sum(total) FROM invoice_fields GROUP BY vendor'), [['Acme', 350.5]]);
    await ok(await call('DELETE', `/llm/result/${docs.a}?prompt_revid=default`));
    const listed = await ok<{ datasets: Dataset[] }>(await call('GET', '/datasets'));
    assert.deepEqual(
      listed.datasets[0]?.tables.map((tb) => tb.table_name),
      ['contract_terms', 'contract_terms__keywords', 'invoice_fields', 'invoice_fields__line_items'],
      'a prompt with no results left has no tables',
    );
    const runs = await ok<{ runs: Array<{ dataset_id: string }>; total_count: number }>(
      await call('GET', '/runs?dataset_id=extractions&limit=100'),
    );
    assert.ok(runs.total_count >= 4);
    assert.ok(runs.runs.every((r) => r.dataset_id === 'extractions'));
  });

  test('cannot be renamed, deleted or given tables: a 409 that says why and what to do', async () => {
    for (const [method, path, payload] of [
      ['PUT', '/datasets/extractions', { name: 'mine' }],
      ['DELETE', '/datasets/extractions'],
      ['POST', '/datasets/extractions/tables', { document_id: docs.a }],
      ['POST', '/documents', { documents: [{ name: 'x.csv', content: 'YQoxCg==' }], dataset_id: 'extractions' }],
    ] as Array<[Method, string, unknown?]>) {
      const res = await call(method, path, payload);
      assert.equal(res.statusCode, 409, `${method} ${path}: ${res.body}`);
      assert.match(
        json<{ detail: string }>(res).detail,
        /"extractions" dataset is built in: .* a dataset of your own|delete that prompt/,
      );
    }
    const made = await call('POST', '/datasets', { name: 'Extractions' });
    assert.equal(made.statusCode, 409, made.body);
    assert.match(json<{ detail: string }>(made).detail, /A dataset named "extractions" already exists \(extractions\)/);
  });

  test('another organization sees only its own', async () => {
    const page = await ok<{ datasets: Dataset[]; total_count: number }>(await call('GET', '/datasets', undefined, bob));
    assert.equal(page.total_count, 1);
    assert.deepEqual(
      page.datasets.map((d) => [d.dataset_id, d.built_in, d.tables.length]),
      [['extractions', true, 0]],
    );
    const run = await sql('SELECT count(*) FROM invoice_fields', bob);
    assert.notEqual(run.status, 'succeeded');
    assert.match(run.error?.message ?? '', /invoice_fields/);
    const aliceRowId = `extractions-${alice.org.id}`;
    assert.equal((await call('GET', `/datasets/${aliceRowId}`, undefined, bob)).statusCode, 404);
  });
});
