import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ExcelJS from 'exceljs';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * A table's rows page by page, on this build's own SQL executor (DuckDB in a child process). With
 * DOCAGENT_SYNC_INGEST_MB at 10 KB and no workers, a larger file's table stays pending.
 */

const ROWS = 300;
const csv = ['id,name,score', ...Array.from({ length: ROWS }, (_, i) => `${i + 1},row ${i + 1},${(i + 1) / 2}`)].join('\n');

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let datasetId: string;

interface Page {
  table_name: string;
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  offset: number;
  total_count: number;
}

const file = (name: string, bytes: string | Buffer) => ({ name, content: Buffer.from(bytes).toString('base64') });

before(async () => {
  t = await startTestApp({ DOCAGENT_SYNC_INGEST_MB: '0.01' });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Plan').addRows([
    ['month', 'target'],
    [new Date(Date.UTC(2024, 0, 1)), 10],
    [new Date(Date.UTC(2024, 1, 1)), 12],
  ]);
  const pending = `id,text\n${Array.from({ length: 1000 }, (_, i) => `${i},${'x'.repeat(20)}`).join('\n')}\n`;
  const res = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${alice.org.id}/documents`,
    headers: bearer(alice.token),
    payload: {
      documents: [
        file('scores.csv', csv),
        file('targets.xlsx', Buffer.from(await book.xlsx.writeBuffer())),
        file('big.csv', pending),
      ],
      create_dataset: 'Scores',
    },
  });
  assert.equal(res.statusCode, 200, res.body);
  const { dataset } = json<{ dataset: { dataset_id: string; tables: Array<{ table_name: string; status: string }> } }>(res);
  datasetId = dataset.dataset_id;
  assert.deepEqual(
    dataset.tables.map((table) => [table.table_name, table.status]),
    [
      ['big', 'pending'],
      ['scores', 'ready'],
      ['targets', 'ready'],
    ],
  );
});
after(() => t?.close());

const rowsUrl = (table: string, query = '', org = alice.org.id, dataset = datasetId) =>
  `/v0/orgs/${org}/datasets/${dataset}/tables/${table}/rows${query}`;

const get = (url: string, token = alice.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

async function page(table: string, query = ''): Promise<Page> {
  const res = await get(rowsUrl(table, query));
  assert.equal(res.statusCode, 200, res.body);
  return json<Page>(res);
}

function refused(res: Awaited<ReturnType<typeof get>>, status: number, detail: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(json<{ detail: string }>(res).detail, detail);
}

test('a page of rows at an offset, typed, with the total', async () => {
  const first = await page('scores', '?offset=0&limit=3');
  assert.deepEqual(first, {
    table_name: 'scores',
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'name', type: 'VARCHAR' },
      { name: 'score', type: 'DOUBLE' },
    ],
    rows: [
      [1, 'row 1', 0.5],
      [2, 'row 2', 1],
      [3, 'row 3', 1.5],
    ],
    offset: 0,
    total_count: ROWS,
  });
  const middle = await page('scores', '?offset=150&limit=2');
  assert.deepEqual(middle.rows, [
    [151, 'row 151', 75.5],
    [152, 'row 152', 76],
  ]);
});

test('the last page is short, past the end is empty, and the default is 100 rows', async () => {
  const last = await page('scores', '?offset=297&limit=100');
  assert.deepEqual(
    last.rows.map((row) => row[0]),
    [298, 299, 300],
  );
  const past = await page('scores', '?offset=5000');
  assert.deepEqual(past.rows, []);
  assert.equal(past.total_count, ROWS);
  const plain = await page('scores');
  assert.equal(plain.offset, 0);
  assert.equal(plain.rows.length, 100);
});

test('a sheet of a workbook pages like a CSV, its dates as ISO text', async () => {
  const plan = await page('targets', '?limit=10');
  assert.deepEqual(plan.rows, [
    ['2024-01-01', 10],
    ['2024-02-01', 12],
  ]);
  assert.equal(plan.total_count, 2);
});

test('reading rows records no run', async () => {
  const res = await get(`/v0/orgs/${alice.org.id}/runs?dataset_id=${datasetId}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json<{ total_count: number }>(res).total_count, 0);
});

test('offset and limit are checked: at most 500 rows a page', async () => {
  refused(await get(rowsUrl('scores', '?limit=501')), 400, /limit/);
  refused(await get(rowsUrl('scores', '?limit=0')), 400, /limit/);
  refused(await get(rowsUrl('scores', '?offset=-1')), 400, /offset/);
  refused(await get(rowsUrl('scores', '?offset=ten')), 400, /offset/);
});

test("an unknown table, another organization's dataset and a pending table are refused with the reason", async () => {
  refused(await get(rowsUrl('nope')), 404, /The dataset "Scores" has no table "nope"; its tables are: big, scores, targets\./);
  refused(await get(rowsUrl('scores', '', bob.org.id), bob.token), 404, new RegExp(`Dataset ${datasetId} was not found`));
  refused(await get(rowsUrl('scores'), bob.token), 404, /Organization .* was not found/);
  refused(await get(rowsUrl('scores', '', alice.org.id, '6a0000000000000000000001')), 404, /was not found/);
  refused(
    await get(rowsUrl('nope', '', alice.org.id, 'extractions')),
    404,
    /The dataset "extractions" has no table "nope"; its tables are: none yet\./,
  );
  refused(await get(rowsUrl('big')), 409, /"big" is still being read in; ask again once its status is ready/);
});
