import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  type DataExecutors,
  ExecutionFailure,
  type ExecutionLimits,
  type QueryResult,
  type SqlParameter,
  type TableFile,
} from '@docagent/core';
import ExcelJS from 'exceljs';
import { bearer, json, multipartBody, seedMember, startTestApp, type TestApp } from './helpers.ts';

interface SqlCall {
  orgId: string;
  sql: string;
  tables: TableFile[];
  limits: Partial<ExecutionLimits> | undefined;
  params: SqlParameter[] | undefined;
}

/** Executors that answer from the SQL text, and remember what they were given. */
const sqlCalls: SqlCall[] = [];
let pythonMissing: string | null = null;
const answer = (columns: string[], rows: unknown[][]): QueryResult => ({
  columns: columns.map((name) => ({ name, type: 'VARCHAR' })),
  rows,
  row_count: rows.length,
  truncated: null,
  exec_time_ms: 3,
});
const fakes: DataExecutors & { close(): Promise<void> } = {
  sqlFor: (orgId) => ({
    async run(sql, tables, limits, params) {
      sqlCalls.push({ orgId, sql, tables, limits, params });
      if (sql.includes('REFUSE')) throw new ExecutionFailure('policy', 'The query was refused: COPY writes files.');
      if (sql.includes('BROKEN')) throw new ExecutionFailure('error', 'Binder Error: Referenced column "nope" not found');
      const sample = /^SELECT \* FROM "(\w+)" LIMIT 3$/.exec(sql);
      if (sample) {
        const table = tables.find((t) => t.name === sample[1]);
        return answer(table?.columns.map((c) => c.name) ?? [], [table?.columns.map((c) => `first ${c.name}`) ?? []]);
      }
      return { ...answer(['n'], [[42]]), columns: [{ name: 'n', type: 'BIGINT' }] };
    },
    async close() {},
  }),
  python: {
    unavailableReason: async () => pythonMissing,
    run: async (code) => answer(['echo'], [[code.length]]),
  },
  close: async () => {},
};

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp({}, { dataExecutors: fakes });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
after(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Table {
  table_id: string;
  table_name: string;
  document_id: string | null;
  sheet_name: string | null;
  status: string;
  error: string | null;
  row_count: number;
  columns: Array<{ name: string; type: string }>;
}
interface Dataset {
  dataset_id: string;
  name: string;
  description: string;
  tables: Table[];
}
interface Run {
  run_id: string;
  dataset_id: string;
  status: string;
  query_mode: string;
  compiled_sql: string | null;
  plan_json: Record<string, unknown> | null;
  python_code: string | null;
  question: string | null;
  result: { columns: unknown[]; rows: unknown[][]; row_count: number } | null;
  error: { code: string; message: string } | null;
}

const org = (who = alice) => `/v0/orgs/${who.org.id}`;
const call = (method: Method, url: string, payload?: unknown, token = alice.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function ok<T>(res: Awaited<ReturnType<typeof call>>): Promise<T> {
  assert.equal(res.statusCode, 200, res.body);
  return json<T>(res);
}

function refused(res: Awaited<ReturnType<typeof call>>, status: number, detail: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(json<{ detail: string }>(res).detail, detail);
}

const file = (name: string, text: string | Buffer) => ({ name, content: Buffer.from(text).toString('base64') });

async function uploadCsv(name: string, text: string, extra: Record<string, unknown> = {}) {
  return call('POST', `${org()}/documents`, { documents: [file(name, text)], ...extra });
}

async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Regions').addRows([
    ['region', 'target'],
    ['north', 10],
    ['south', { formula: '2*5', result: 10 }],
  ]);
  book.addWorksheet('Months').addRows([
    ['month', 'sales'],
    ['jan', 1.5],
  ]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

let sales: Dataset;

describe('datasets', () => {
  test('an upload with create_dataset makes the dataset, its table ready, in the same answer', async () => {
    const body = await ok<{ documents: Array<{ document_id: string }>; dataset: Dataset }>(
      await uploadCsv('Orders 2024.csv', 'id,amount\n1,9.5\n2,10\n', { create_dataset: 'Sales' }),
    );
    sales = body.dataset;
    assert.equal(sales.name, 'Sales');
    assert.deepEqual(
      sales.tables.map((tb) => [tb.table_name, tb.status, tb.row_count, tb.document_id]),
      [['orders_2024', 'ready', 2, body.documents[0]?.document_id]],
    );
    assert.deepEqual(sales.tables[0]?.columns, [
      { name: 'id', type: 'BIGINT' },
      { name: 'amount', type: 'DOUBLE' },
    ]);
  });

  test('a multipart upload with dataset_id adds a workbook, one table per sheet', async () => {
    const form = multipartBody([
      { name: 'dataset_id', value: sales.dataset_id },
      { name: 'file', filename: 'Plan.xlsx', value: await workbook() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${org()}/documents/multipart`,
      headers: { ...bearer(alice.token), ...form.headers },
      payload: form.payload,
    });
    const body = await ok<{ dataset: Dataset }>(res);
    assert.deepEqual(
      body.dataset.tables.map((tb) => [tb.table_name, tb.sheet_name, tb.status]),
      [
        ['orders_2024', null, 'ready'],
        ['plan_months', 'Months', 'ready'],
        ['plan_regions', 'Regions', 'ready'],
      ],
    );
    const regions = body.dataset.tables.find((tb) => tb.table_name === 'plan_regions');
    assert.deepEqual(regions?.columns, [
      { name: 'region', type: 'VARCHAR' },
      { name: 'target', type: 'BIGINT' },
    ]);
    assert.equal(regions?.row_count, 2);
  });

  test('an upload naming a dataset keeps nothing when the dataset part is refused', async () => {
    const before = json<{ total_count: number }>(await call('GET', `${org()}/documents?limit=1`)).total_count;
    refused(
      await uploadCsv('note.md', '# Title\n\nSome text.\n', { dataset_id: sales.dataset_id }),
      400,
      /"note\.md" is of kind markdown; only CSV, TSV and XLSX/,
    );
    refused(
      await uploadCsv('a.csv', 'x\n1\n', { dataset_id: '6a0000000000000000000001' }),
      404,
      /Dataset 6a0000000000000000000001 was not found/,
    );
    refused(await uploadCsv('a.csv', 'x\n1\n', { create_dataset: 'sales' }), 409, /A dataset named "Sales" already exists/);
    refused(await uploadCsv('a.csv', 'x\n1\n', { create_dataset: 'New', dataset_id: sales.dataset_id }), 400, /not both/);
    const binary = Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10, 0x20]);
    refused(
      await call('POST', `${org()}/documents`, { documents: [file('data.csv', binary)], create_dataset: 'Bin' }),
      400,
      /"data\.csv" has content of an unknown type/,
    );
    const after = json<{ total_count: number }>(await call('GET', `${org()}/documents?limit=1`)).total_count;
    assert.equal(after, before, 'no document of a refused upload is kept');
  });

  test('POST, GET, PUT and the list; names are unique per organization, case aside', async () => {
    const made = await ok<Dataset>(
      await call('POST', `${org()}/datasets`, { name: '  Inventory ', description: 'Stock counts' }),
    );
    assert.equal(made.name, 'Inventory');
    assert.deepEqual(made.tables, []);
    refused(await call('POST', `${org()}/datasets`, { name: 'INVENTORY' }), 409, /already exists/);
    refused(await call('POST', `${org()}/datasets`, { name: ' ' }), 400, /A dataset name has 1 to 200 characters/);
    refused(
      await call('POST', `${org()}/datasets`, { name: 'x', document_ids: ['6a0000000000000000000002'] }),
      404,
      /Document 6a0000000000000000000002/,
    );
    const renamed = await ok<Dataset>(await call('PUT', `${org()}/datasets/${made.dataset_id}`, { name: 'Stock' }));
    assert.equal(renamed.name, 'Stock');
    assert.equal(renamed.description, 'Stock counts');
    refused(await call('PUT', `${org()}/datasets/${made.dataset_id}`, { name: 'sales' }), 409, /already exists/);
    const page = await ok<{ datasets: Dataset[]; total_count: number }>(await call('GET', `${org()}/datasets?name_search=sto`));
    assert.deepEqual(
      page.datasets.map((d) => d.name),
      ['Stock'],
    );
    const got = await ok<Dataset>(await call('GET', `${org()}/datasets/${sales.dataset_id}`));
    assert.equal(got.tables.length, 3);
  });

  test('POST tables: a free name from the file, _2 on a clash, 409 for a name asked for that is taken', async () => {
    const [doc] = (await ok<{ documents: Array<{ document_id: string }> }>(await uploadCsv('orders-2024.csv', 'id\n7\n')))
      .documents;
    const added = await ok<{ tables: Table[] }>(
      await call('POST', `${org()}/datasets/${sales.dataset_id}/tables`, { document_id: doc?.document_id }),
    );
    assert.deepEqual(
      added.tables.map((tb) => tb.table_name),
      ['orders_2024_2'],
    );
    const [other] = (await ok<{ documents: Array<{ document_id: string }> }>(await uploadCsv('x.csv', 'id\n8\n'))).documents;
    const url = `${org()}/datasets/${sales.dataset_id}/tables`;
    refused(
      await call('POST', url, { document_id: other?.document_id, table_name: 'orders_2024' }),
      409,
      /already has a table named orders_2024/,
    );
    refused(await call('POST', url, { document_id: doc?.document_id }), 409, /already in this dataset as orders_2024_2/);
  });

  test('the schema names each table as SQL writes it, with columns, row counts and 3 sample rows through the SQL executor', async () => {
    sqlCalls.length = 0;
    const schema = await ok<{ dataset_id: string; tables: Array<Record<string, unknown>> }>(
      await call('GET', `${org()}/datasets/${sales.dataset_id}/schema`),
    );
    const orders = schema.tables.find((tb) => tb.table_name === 'orders_2024');
    assert.deepEqual(orders?.sample_rows, [{ id: 'first id', amount: 'first amount' }]);
    assert.equal(orders?.row_count, 2);
    assert.equal(orders?.sample_error, null);
    assert.ok(sqlCalls.every((c) => c.orgId === alice.org.id && c.limits?.maxRows === 3));
    const files = sqlCalls[0]?.tables ?? [];
    assert.deepEqual(files.map((f) => f.name).sort(), ['orders_2024', 'orders_2024_2', 'plan_months', 'plan_regions']);
    assert.ok(
      files.every((f) => existsSync(f.parquetPath) && existsSync(f.csvPath)),
      'the executor gets files on disk',
    );
  });

  test("another organization's dataset is not found, whoever asks and whatever for", async () => {
    const id = sales.dataset_id;
    for (const [method, url, payload] of [
      ['GET', `${org()}/datasets/${id}`],
      ['GET', `${org(bob)}/datasets/${id}`],
      ['PUT', `${org(bob)}/datasets/${id}`, { name: 'mine' }],
      ['DELETE', `${org(bob)}/datasets/${id}`],
      ['GET', `${org(bob)}/datasets/${id}/schema`],
      ['POST', `${org(bob)}/datasets/${id}/tables`, { document_id: sales.tables[0]?.document_id }],
      ['POST', `${org(bob)}/runs`, { dataset_id: id, query_type: 'sql', sql: 'SELECT 1' }],
    ] as Array<[Method, string, unknown?]>) {
      const res = await call(method, url, payload, bob.token);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    const bobs = await ok<Dataset>(await call('POST', `${org(bob)}/datasets`, { name: 'Bob data' }, bob.token));
    refused(
      await call(
        'POST',
        `${org(bob)}/datasets/${bobs.dataset_id}/tables`,
        { document_id: sales.tables[0]?.document_id },
        bob.token,
      ),
      404,
      /Document .* was not found/,
    );
    const bobsPage = await ok<{ datasets: Dataset[] }>(await call('GET', `${org(bob)}/datasets`, undefined, bob.token));
    assert.deepEqual(
      bobsPage.datasets.map((d) => d.name),
      ['extractions', 'Bob data'],
      "bob's own dataset after his built-in one",
    );
  });
});

describe('runs', () => {
  const runs = () => `${org()}/runs`;
  const post = (body: Record<string, unknown>) => call('POST', runs(), { dataset_id: sales.dataset_id, ...body });

  test('POST /runs runs SQL and answers the run as GET /runs/{id} does', async () => {
    sqlCalls.length = 0;
    const run = await ok<Run>(
      await post({ query_type: 'sql', sql: 'SELECT count(*) AS n FROM orders_2024', question: 'How many orders?' }),
    );
    assert.equal(run.status, 'succeeded');
    assert.equal(run.query_mode, 'sql');
    assert.equal(run.compiled_sql, 'SELECT count(*) AS n FROM orders_2024');
    assert.equal(run.question, 'How many orders?');
    assert.deepEqual(run.result?.rows, [[42]]);
    assert.equal(run.error, null);
    assert.deepEqual(await ok<Run>(await call('GET', `${runs()}/${run.run_id}`)), run);
    assert.deepEqual(await ok(await call('GET', `${runs()}/${run.run_id}/status`)), { run_id: run.run_id, status: 'succeeded' });
    assert.deepEqual(sqlCalls[0]?.limits, { maxRows: 200, maxOutputBytes: 256 * 1024, timeoutMs: 30_000 });
  });

  test('a policy refusal is rejected, an engine error failed, each with its code and message', async () => {
    const rejected = await ok<Run>(await post({ query_type: 'sql', sql: "REFUSE COPY t TO 'x'" }));
    assert.equal(rejected.status, 'rejected');
    assert.deepEqual(rejected.error, { code: 'SQL_POLICY_VIOLATION', message: 'The query was refused: COPY writes files.' });
    assert.equal(rejected.result, null);
    const failed = await ok<Run>(await post({ query_type: 'sql', sql: 'SELECT nope FROM BROKEN' }));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error?.code, 'EXECUTION_ERROR');
    assert.match(failed.error?.message ?? '', /Binder Error/);
  });

  test('a plan is compiled to SQL with bound values; one naming an unknown column is rejected', async () => {
    sqlCalls.length = 0;
    const plan = {
      table: 'orders_2024',
      select: [{ column: 'amount', function: 'sum', alias: 'total' }],
      filters: [{ column: 'id', operator: '>', value: 1 }],
    };
    const run = await ok<Run>(await post({ query_type: 'plan', plan }));
    assert.equal(run.status, 'succeeded', JSON.stringify(run.error));
    assert.equal(run.query_mode, 'plan');
    assert.match(run.compiled_sql ?? '', /sum\("amount"\).*"orders_2024".*\$1/s);
    assert.equal(run.plan_json?.table, 'orders_2024');
    assert.deepEqual(sqlCalls[0]?.params, [1]);
    const bad = await ok<Run>(await post({ query_type: 'plan', plan: { table: 'orders_2024', select: ['nope'] } }));
    assert.equal(bad.status, 'rejected');
    assert.equal(bad.error?.code, 'PLAN_VALIDATION_ERROR');
    assert.match(bad.error?.message ?? '', /"nope"/);
  });

  test('Python runs through the Python executor; where it is not installed the run fails with FEATURE_DISABLED', async () => {
    const run = await ok<Run>(await post({ query_type: 'python', python_code: 'result_df = orders_2024' }));
    assert.equal(run.status, 'succeeded');
    assert.equal(run.python_code, 'result_df = orders_2024');
    pythonMissing = 'Python runs need bubblewrap and pandas: apt-get install bubblewrap python3-pandas.';
    try {
      const missing = await ok<Run>(await post({ query_type: 'python', python_code: 'result_df = 1' }));
      assert.equal(missing.status, 'failed');
      assert.deepEqual(missing.error, { code: 'FEATURE_DISABLED', message: pythonMissing });
    } finally {
      pythonMissing = null;
    }
  });

  test('a body whose query does not match its query_type, or an invalid plan, is a 400 and no run', async () => {
    const before = (await ok<{ total_count: number }>(await call('GET', runs()))).total_count;
    refused(await post({ query_type: 'sql', plan: { table: 'x' } }), 400, /query_type sql takes the field sql/);
    refused(
      await post({ query_type: 'python', sql: 'SELECT 1', python_code: 'x' }),
      400,
      /takes the field python_code, and no other/,
    );
    refused(await post({ query_type: 'plan', plan: { table: 'x', limit: 0 } }), 400, /plan\.limit/);
    refused(await post({ query_type: 'sql', sql: 'SELECT 1', dataset_id: '6a0000000000000000000003' }), 404, /Dataset/);
    assert.equal((await ok<{ total_count: number }>(await call('GET', runs()))).total_count, before);
  });

  test('GET /runs pages newest first and filters by dataset; another organization sees none of them', async () => {
    const page = await ok<{ runs: Array<Record<string, unknown>>; total_count: number }>(await call('GET', `${runs()}?limit=2`));
    assert.equal(page.runs.length, 2);
    assert.ok(page.total_count >= 7);
    assert.ok(!('result' in (page.runs[0] ?? {})), 'a list has no rows');
    const other = await ok<Dataset>(await call('POST', `${org()}/datasets`, { name: 'Runs elsewhere' }));
    await ok(await call('POST', runs(), { dataset_id: other.dataset_id, query_type: 'sql', sql: 'SELECT 1' }));
    const filtered = await ok<{ runs: Run[]; total_count: number }>(
      await call('GET', `${runs()}?dataset_id=${other.dataset_id}`),
    );
    assert.equal(filtered.total_count, 1);
    const [one] = filtered.runs;
    assert.equal((await call('GET', `${org(bob)}/runs/${one?.run_id}`, undefined, bob.token)).statusCode, 404);
    assert.equal((await ok<{ total_count: number }>(await call('GET', `${org(bob)}/runs`, undefined, bob.token))).total_count, 0);
    await ok(await call('DELETE', `${org()}/datasets/${other.dataset_id}`));
    assert.equal((await call('GET', `${runs()}/${one?.run_id}`)).statusCode, 404, 'runs go with their dataset');
  });
});
