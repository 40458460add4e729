import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createPrompt,
  createSchema,
  EXPORT_PAGE,
  type PromptRevision,
  saveExtractionResult,
  updateExtractionResult,
} from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { parseString } from '@fast-csv/parse';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { bearer, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * Exports of a prompt's results as CSV, XLSX and JSON over the HTTP API: results stored through the
 * core services (no LLM), parsed back with a CSV parser, exceljs and JSON.parse.
 */

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let invoice: PromptRevision;
let empty: PromptRevision;
const docs: string[] = [];
/** The documents' names, in the order of `docs` (by id, the export's order). */
const names: string[] = [];

const invoiceFormat = strictResponseFormat({
  vendor: { type: 'string' },
  total: { type: 'number' },
  paid: { type: 'boolean' },
  note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  address: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      geo: {
        type: 'object',
        properties: { lat: { type: 'number' }, lon: { type: 'number' } },
        required: ['lat', 'lon'],
        additionalProperties: false,
      },
    },
    required: ['city', 'geo'],
    additionalProperties: false,
  },
  line_items: {
    type: 'array',
    items: {
      type: 'object',
      properties: { description: { type: 'string' }, amount: { type: 'number' } },
      required: ['description', 'amount'],
      additionalProperties: false,
    },
  },
  keywords: { type: 'array', items: { type: 'string' } },
});

const results = [
  {
    vendor: 'Acme, "Inc."\nBerlin',
    total: 100.5,
    paid: true,
    note: null,
    address: { city: 'Berlin', geo: { lat: 52.5, lon: 13.4 } },
    line_items: [
      { description: 'bolts', amount: 60.5 },
      { description: 'nuts', amount: 40 },
    ],
    keywords: ['renewal', 'penalty'],
  },
  {
    vendor: '=HYPERLINK("http://evil.test","click")',
    total: -20,
    paid: false,
    note: '+1 555 0100',
    address: { city: '@home', geo: { lat: -1, lon: 0 } },
    line_items: [{ description: '-discount', amount: -20 }],
    keywords: [],
  },
  {
    vendor: 'Ünïcödé GmbH',
    total: 0,
    paid: false,
    note: 'plain',
    address: { city: 'München', geo: { lat: 48.1, lon: 11.6 } },
    line_items: [],
    keywords: ['x'],
  },
];
const edited = { ...results[2], vendor: 'Corrected GmbH', total: 7 };
const expected = [results[0], results[1], edited] as Array<(typeof results)[number]>;

const get = (path: string, who = alice) =>
  t.app.inject({ method: 'GET', url: `/v0/orgs/${who.org.id}${path}`, headers: bearer(who.token) });
const exportOf = (prompt: PromptRevision, query: string, who = alice) =>
  get(`/prompts/${prompt.promptId}/results/export?${query}`, who);

const parseCsv = (text: string) =>
  new Promise<Array<Record<string, string>>>((resolve, reject) => {
    const rows: Array<Record<string, string>> = [];
    parseString(text, { headers: true })
      .on('data', (row: Record<string, string>) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });

async function workbookOf(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook;
}

/** A sheet's rows as objects by its header row. */
function sheetRows(workbook: ExcelJS.Workbook, name: string): Array<Record<string, unknown>> {
  const sheet = workbook.getWorksheet(name);
  assert.ok(sheet, `sheet ${name}`);
  const values = sheet.getSheetValues().filter(Boolean) as unknown[][];
  const [header, ...rows] = values.map((row) => row.slice(1));
  return rows.map((row) => Object.fromEntries((header ?? []).map((h, i) => [String(h), row[i] ?? null])));
}

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${alice.org.id}/documents`,
    headers: bearer(alice.token),
    payload: {
      documents: ['a.txt', 'b.txt', 'c.txt'].map((name) => ({ name, content: Buffer.from(`${name} text`).toString('base64') })),
    },
  });
  assert.equal(uploaded.statusCode, 200, uploaded.body);
  const stored = (uploaded.json() as { documents: Array<{ document_id: string; document_name: string }> }).documents;
  stored.sort((a, b) => (a.document_id < b.document_id ? -1 : 1));
  docs.push(...stored.map((d) => d.document_id));
  names.push(...stored.map((d) => d.document_name));
  const db = t.database.db;
  const access = { orgId: alice.org.id, role: 'admin' as const, userId: alice.user.id };
  const schema = await createSchema(db, access, { name: 'invoice', responseFormat: invoiceFormat });
  invoice = await createPrompt(db, access, { name: 'Invoice fields / 2024', content: 'Extract.', schemaId: schema.schemaId });
  empty = await createPrompt(db, access, { name: 'Nothing yet', content: 'Extract.', schemaId: schema.schemaId });
  for (const [i, doc] of docs.entries()) {
    await saveExtractionResult(db, alice.org.id, doc, invoice, 'test:model', results[i] as Record<string, unknown>);
  }
  // A person's correction of the third result, verified: the export holds it.
  await updateExtractionResult(db, alice.org.id, docs[2] as string, invoice.promptRevid, {
    updatedLlmResult: edited,
    isVerified: true,
  });
});
after(() => t.close());

describe('prompt results export', () => {
  test('CSV: a row per document, nested objects as dotted columns, lists as JSON text, parsed back to the values', async () => {
    const res = await exportOf(invoice, 'format=csv');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="Invoice_fields_2024-results.csv"');
    const rows = await parseCsv(res.body);
    assert.deepEqual(Object.keys(rows[0] ?? {}), [
      'document_id',
      'document_name',
      'vendor',
      'total',
      'paid',
      'note',
      'address.city',
      'address.geo.lat',
      'address.geo.lon',
      'line_items',
      'keywords',
      'is_verified',
      'is_edited',
      'model',
      'updated_at',
    ]);
    assert.equal(rows.length, 3);
    const neutral = (s: string) => (/^[=+\-@]/.test(s) ? `'${s}` : s);
    rows.forEach((row, i) => {
      const r = expected[i];
      assert.ok(r);
      assert.equal(row.document_id, docs[i]);
      assert.equal(row.document_name, names[i]);
      assert.equal(row.vendor, neutral(r.vendor));
      assert.equal(Number(row.total), r.total);
      assert.equal(row.paid, String(r.paid));
      assert.equal(row.note, r.note === null ? '' : neutral(r.note));
      assert.equal(row['address.city'], neutral(r.address.city));
      assert.equal(Number(row['address.geo.lat']), r.address.geo.lat);
      assert.equal(Number(row['address.geo.lon']), r.address.geo.lon);
      assert.deepEqual(JSON.parse(row.line_items ?? ''), r.line_items);
      assert.deepEqual(JSON.parse(row.keywords ?? ''), r.keywords);
      assert.equal(row.is_verified, String(i === 2));
      assert.equal(row.is_edited, String(i === 2));
      assert.equal(row.model, 'test:model');
      assert.ok(!Number.isNaN(Date.parse(row.updated_at ?? '')));
    });
  });

  test('CSV and XLSX neutralise formulas; JSON keeps the values as stored', async () => {
    const csv = await parseCsv((await exportOf(invoice, 'format=csv')).body);
    assert.equal(csv[1]?.vendor, `'=HYPERLINK("http://evil.test","click")`);
    assert.equal(csv[1]?.note, `'+1 555 0100`);
    assert.equal(csv[1]?.['address.city'], `'@home`);
    assert.equal(csv[1]?.total, '-20', 'numbers are numbers, not text to neutralise');
    const workbook = await workbookOf((await exportOf(invoice, 'format=xlsx')).rawPayload);
    const [, second] = sheetRows(workbook, 'results');
    assert.equal(second?.vendor, `'=HYPERLINK("http://evil.test","click")`);
    assert.equal(second?.total, -20);
    const items = sheetRows(workbook, 'items');
    assert.equal(items.find((row) => row.document_id === docs[1] && row.array === 'line_items')?.description, `'-discount`);
    for (const sheet of workbook.worksheets) {
      sheet.eachRow((row) => row.eachCell((cell) => assert.notEqual(cell.type, ExcelJS.ValueType.Formula)));
    }
    const json = JSON.parse((await exportOf(invoice, 'format=json')).body) as Array<{ updated_llm_result: { vendor: string } }>;
    assert.equal(json[1]?.updated_llm_result.vendor, '=HYPERLINK("http://evil.test","click")');
  });

  test('XLSX: the results sheet as the CSV, typed, and the list items in a second sheet keyed by document and path', async () => {
    const res = await exportOf(invoice, 'format=xlsx');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="Invoice_fields_2024-results.xlsx"');
    const workbook = await workbookOf(res.rawPayload);
    const rows = sheetRows(workbook, 'results');
    assert.equal(rows.length, 3);
    rows.forEach((row, i) => {
      const r = expected[i];
      assert.ok(r);
      assert.equal(row.document_id, docs[i]);
      assert.equal(row.total, r.total);
      assert.equal(row.paid, r.paid);
      assert.equal(row['address.geo.lat'], r.address.geo.lat);
      assert.deepEqual(JSON.parse(String(row.line_items)), r.line_items);
      assert.equal(row.is_verified, i === 2);
    });
    assert.equal(rows[0]?.vendor, 'Acme, "Inc."\nBerlin');
    assert.equal(rows[2]?.vendor, 'Corrected GmbH');
    assert.equal(rows[0]?.note, null);
    const items = sheetRows(workbook, 'items');
    const sheet = workbook.getWorksheet('items');
    assert.ok(sheet);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
      'document_id',
      'array',
      'item_index',
      'description',
      'amount',
      'value',
    ]);
    const expectedItems = expected.flatMap((r, i) => [
      ...r.line_items.map((item, index) => ({
        document_id: docs[i],
        array: 'line_items',
        item_index: index,
        description: item.description.startsWith('-') ? `'${item.description}` : item.description,
        amount: item.amount,
        value: null,
      })),
      ...r.keywords.map((value, index) => ({
        document_id: docs[i],
        array: 'keywords',
        item_index: index,
        description: null,
        amount: null,
        value,
      })),
    ]);
    assert.deepEqual(items, expectedItems);
  });

  test('JSON: an array of the results as stored, the person’s edits included', async () => {
    const res = await exportOf(invoice, 'format=json');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="Invoice_fields_2024-results.json"');
    const rows = JSON.parse(res.body) as Array<Record<string, unknown>>;
    assert.deepEqual(
      rows.map((r) => r.updated_llm_result),
      expected,
    );
    assert.deepEqual(
      rows.map((r) => [r.document_id, r.document_name, r.prompt_revid, r.is_verified, r.is_edited, r.model]),
      docs.map((d, i) => [d, names[i], invoice.promptRevid, i === 2, i === 2, 'test:model']),
    );
  });

  test('filters: a revision of the prompt and tags', async () => {
    const byRevision = JSON.parse((await exportOf(invoice, `format=json&prompt_revid=${invoice.promptRevid}`)).body);
    assert.equal(byRevision.length, 3);
    assert.equal((await exportOf(invoice, `format=json&prompt_revid=${empty.promptRevid}`)).statusCode, 404);
    const tag = await t.app.inject({
      method: 'POST',
      url: `/v0/orgs/${alice.org.id}/tags`,
      headers: bearer(alice.token),
      payload: { name: 'export-me', color: '#123456' },
    });
    assert.equal(tag.statusCode, 200, tag.body);
    const tagId = (tag.json() as { id: string }).id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v0/orgs/${alice.org.id}/documents/${docs[1]}`,
      headers: bearer(alice.token),
      payload: { tag_ids: [tagId] },
    });
    assert.equal(put.statusCode, 200, put.body);
    const tagged = JSON.parse((await exportOf(invoice, `format=json&tag_ids=${tagId}`)).body) as Array<{ document_id: string }>;
    assert.deepEqual(
      tagged.map((r) => r.document_id),
      [docs[1]],
    );
  });

  test('no results: the header only, an empty sheet, []', async () => {
    const csv = await exportOf(empty, 'format=csv');
    assert.equal(csv.statusCode, 200, csv.body);
    assert.equal(
      csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n').length,
      1,
    );
    assert.equal(await parseCsv(csv.body).then((rows) => rows.length), 0);
    const workbook = await workbookOf((await exportOf(empty, 'format=xlsx')).rawPayload);
    assert.equal(sheetRows(workbook, 'results').length, 0);
    assert.equal(sheetRows(workbook, 'items').length, 0);
    assert.deepEqual(JSON.parse((await exportOf(empty, 'format=json')).body), []);
  });

  test("another organization's prompt is not found; a bad format is refused", async () => {
    for (const format of ['csv', 'xlsx', 'json']) {
      assert.equal((await exportOf(invoice, `format=${format}`, bob)).statusCode, 404);
    }
    assert.equal((await get(`/prompts/${invoice.promptId}/results/export?format=csv`, bob)).statusCode, 404);
    const other = await t.app.inject({
      method: 'GET',
      url: `/v0/orgs/${alice.org.id}/prompts/${invoice.promptId}/results/export?format=csv`,
      headers: bearer(bob.token),
    });
    assert.ok([403, 404].includes(other.statusCode), `${other.statusCode}`);
    assert.equal((await exportOf(invoice, 'format=pdf')).statusCode, 400);
  });

  // What this checks is where one page ends and the next begins; an export's time and memory at
  // 50,000 results are the api benchmark's (BENCHMARKS.md).
  test('a large export streams out page by page, every row of it: five pages of 500 and a last one of 1', async () => {
    const db = t.database.db;
    const access = { orgId: alice.org.id, role: 'admin' as const, userId: alice.user.id };
    const bulk = await createPrompt(db, access, { name: 'Bulk', content: 'Summarise.' });
    const n = 5 * EXPORT_PAGE + 1;
    await db.execute(sql`
      insert into documents (id, org_id, name, mime_type, kind, state, blob_id, size_bytes, uploaded_by)
      select 'bulk' || lpad(i::text, 6, '0'), d.org_id, 'bulk ' || i || '.txt', d.mime_type, d.kind, d.state, d.blob_id, d.size_bytes, d.uploaded_by
      from documents d, generate_series(1, ${n}) i where d.id = ${docs[0]}`);
    await db.execute(sql`
      insert into extraction_results (id, org_id, document_id, prompt_id, prompt_revid, prompt_version, model, llm_result, updated_llm_result)
      select 'bulkres' || i, ${alice.org.id}, 'bulk' || lpad(i::text, 6, '0'), ${bulk.promptId}, ${bulk.promptRevid}, 1, 'test:model',
        json_build_object('n', i, 'party', json_build_object('name', 'P' || i), 'items', json_build_array(json_build_object('k', i))),
        json_build_object('n', i, 'party', json_build_object('name', 'P' || i), 'items', json_build_array(json_build_object('k', i)))
      from generate_series(1, ${n}) i`);
    // Rows that arrive over time get statistics from autovacuum; rows inserted at once have none,
    // and without them the planner reads every result of the prompt for each page of 500.
    await db.execute(sql`analyze documents, extraction_results`);
    const csv = await exportOf(bulk, 'format=csv');
    assert.equal(csv.statusCode, 200);
    const rows = await parseCsv(csv.body);
    assert.equal(rows.length, n);
    assert.deepEqual(Object.keys(rows[0] ?? {}).slice(0, 5), ['document_id', 'document_name', 'n', 'party.name', 'items']);
    assert.equal(new Set(rows.map((r) => r.document_id)).size, n);
    assert.equal(rows.at(-1)?.['party.name'], `P${n}`);
    const json = JSON.parse((await exportOf(bulk, 'format=json')).body) as unknown[];
    assert.equal(json.length, n);
    const workbook = await workbookOf((await exportOf(bulk, 'format=xlsx')).rawPayload);
    assert.equal(workbook.getWorksheet('results')?.actualRowCount, n + 1);
    assert.equal(workbook.getWorksheet('items')?.actualRowCount, n + 1);
  });
});
