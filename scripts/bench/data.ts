import { spawnSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { type BenchOptions, startAgentStack } from './agent-stack.ts';
import { type ApiClient, call, orgPath } from './client.ts';
import { CUSTOMERS, ORDERS, writeDataFiles } from './data-files.ts';
import { median, medianSeconds, table } from './measure.ts';

/**
 * The data analyst against the tools a person would otherwise use, on the same generated CSV
 * files in the same run: upload to ready (ingest into Parquet) against DuckDB converting the
 * files in-process; SQL through `POST /runs` against the same queries in DuckDB in-process
 * (tables loaded in memory, and straight over the CSV files); a pandas group-by through the
 * sandbox against `/usr/bin/python3` with pandas on the same CSV.
 */

const RUNS = 10;
const PYTHON_RUNS = 3;
const UPLOAD_RUNS = 3;
const PYTHON = '/usr/bin/python3';
const TIMEOUT_MS = 10 * 60_000;

const QUERIES = [
  {
    name: "filter: a customer's orders over 100",
    sql: 'SELECT order_id, order_date, amount, status FROM orders WHERE customer_id = 4242 AND amount > 100 ORDER BY order_id',
  },
  {
    name: 'group by: orders and revenue per status',
    sql: 'SELECT status, count(*) AS orders, round(sum(amount), 2) AS revenue, round(avg(amount), 2) AS average FROM orders GROUP BY status ORDER BY status',
  },
  {
    name: 'join: revenue per country and segment (top 10)',
    sql: "SELECT c.country, c.segment, count(*) AS orders, round(sum(o.amount), 2) AS revenue FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE o.status <> 'cancelled' GROUP BY c.country, c.segment ORDER BY revenue DESC LIMIT 10",
  },
];

const PANDAS_GROUP_BY = "orders.groupby('status')['amount'].agg(['count', 'sum', 'mean']).reset_index().sort_values('status')";

interface Run {
  status: string;
  result: { rows: unknown[][]; exec_time_ms: number } | null;
  error: { code: string; message: string } | null;
}

async function runQuery(client: ApiClient, datasetId: string, body: Record<string, unknown>): Promise<Run> {
  const run = await call<Run>(client, 'POST', '/runs', { dataset_id: datasetId, ...body });
  if (run.status !== 'succeeded') throw new Error(`the run ${run.status}: ${run.error?.code} ${run.error?.message}`);
  return run;
}

/** Uploads the files into a new dataset and waits until its tables are ready; answers the seconds that took. */
async function uploadToReady(client: ApiClient, files: Array<{ path: string; name: string }>, datasetName: string) {
  const form = new FormData();
  form.append('create_dataset', datasetName);
  for (const file of files) form.append('file', await openAsBlob(file.path, { type: 'text/csv' }), file.name);
  const started = performance.now();
  const response = await fetch(orgPath(client, '/documents/multipart'), {
    method: 'POST',
    headers: { authorization: `Bearer ${client.account.token}` },
    body: form,
  });
  const text = await response.text();
  const answered = (performance.now() - started) / 1000;
  if (!response.ok) throw new Error(`upload: ${response.status} ${text.slice(0, 500)}`);
  const uploaded = JSON.parse(text) as { documents: Array<{ document_id: string }>; dataset: { dataset_id: string } };
  const datasetId = uploaded.dataset.dataset_id;
  for (;;) {
    const dataset = await call<{ tables: Array<{ table_name: string; status: string; error: string | null }> }>(
      client,
      'GET',
      `/datasets/${datasetId}`,
    );
    const failed = dataset.tables.find((t) => t.status === 'failed');
    if (failed) throw new Error(`the table ${failed.table_name} failed: ${failed.error}`);
    if (dataset.tables.every((t) => t.status === 'ready')) break;
    if (performance.now() - started > TIMEOUT_MS) throw new Error('the tables were not ready after 10 minutes');
    await sleep(50);
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, answered, datasetId, documentIds: uploaded.documents.map((d) => d.document_id) };
}

/** Waits until the documents' own pipeline (text, then the default prompt) is done, so that it does not run beside the queries. */
async function settled(client: ApiClient, documentIds: string[]): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  for (const id of documentIds) {
    for (;;) {
      const { state } = await call<{ state: string }>(client, 'GET', `/documents/${id}?include_content=false`);
      if (state === 'llm_completed' || state.endsWith('_failed')) break;
      if (performance.now() > deadline) throw new Error(`document ${id} still ${state} after 10 minutes`);
      await sleep(200);
    }
  }
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** An in-process DuckDB with the server's SQL engine's thread count, after `setup`. */
async function duckdb(setup: string[]): Promise<{ con: DuckDBConnection; close(): void }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const con = await instance.connect();
  for (const statement of setup) await con.run(statement);
  return {
    con,
    close: () => {
      con.closeSync();
      instance.closeSync();
    },
  };
}

/** Rows comparable across the two: numbers as numbers, rounded to cents. */
const comparable = (rows: unknown[][]) =>
  JSON.stringify(
    rows.map((row) =>
      row.map((cell) => {
        const n = typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
        return typeof n === 'number' ? Math.round(n * 100) / 100 : n;
      }),
    ),
  );

const ms = (seconds: number) => `${(seconds * 1000).toFixed(seconds < 0.1 ? 1 : 0)} ms`;
const s = (seconds: number) => `${seconds.toFixed(2)} s`;

export async function runDataBenchmark(options: BenchOptions): Promise<{ table: string; results: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-bench-data-'));
  const ordersPath = join(dir, 'orders.csv');
  const customersPath = join(dir, 'customers.csv');
  const sizes = await writeDataFiles(ordersPath, customersPath);
  const stack = await startAgentStack({ ...options, agent: () => ({ text: 'unused' }), env: { MAX_UPLOAD_MB: '512' } });
  const rows: Array<Array<string | number>> = [];
  const results: Record<string, unknown> = { orders_rows: ORDERS, customers_rows: CUSTOMERS, bytes: sizes };
  try {
    const { client } = stack;
    const files = [
      { path: ordersPath, name: 'orders.csv' },
      { path: customersPath, name: 'customers.csv' },
    ];
    const uploads: number[] = [];
    const answers: number[] = [];
    let datasetId = '';
    for (let i = 0; i < UPLOAD_RUNS; i++) {
      const upload = await uploadToReady(client, files, `Shop ${i + 1}`);
      uploads.push(upload.seconds);
      answers.push(upload.answered);
      datasetId = upload.datasetId;
      // Untimed: the next upload (and the queries) should not share the server with this one's text and prompt jobs.
      await settled(client, upload.documentIds);
    }
    const convert = await medianSeconds(UPLOAD_RUNS, async () => {
      const engine = await duckdb([]);
      for (const [path, name] of [
        [ordersPath, 'orders'],
        [customersPath, 'customers'],
      ]) {
        await engine.con.run(
          `COPY (SELECT * FROM read_csv(${literal(path!)})) TO ${literal(join(dir, `${name}.parquet`))} (FORMAT parquet)`,
        );
      }
      engine.close();
    });
    const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(0)} MB`;
    rows.push([
      `upload to ready: orders.csv (${ORDERS.toLocaleString('en')} rows, ${mb(sizes.orders)}) + customers.csv (${CUSTOMERS.toLocaleString('en')} rows, ${mb(sizes.customers)})`,
      `${s(median(uploads))} (the upload answered after ${s(median(answers))})`,
      `${s(convert)} (DuckDB in-process: read_csv → Parquet)`,
      (median(uploads) / convert).toFixed(1),
    ]);
    results.upload_to_ready_s = uploads;
    results.upload_answered_s = answers;
    results.duckdb_csv_to_parquet_s = convert;

    const views = (table: string, path: string) => `CREATE VIEW ${table} AS SELECT * FROM read_csv(${literal(path)})`;
    const loaded = await duckdb([
      `CREATE TABLE orders AS SELECT * FROM read_csv(${literal(ordersPath)})`,
      `CREATE TABLE customers AS SELECT * FROM read_csv(${literal(customersPath)})`,
    ]);
    const overCsv = await duckdb([views('orders', ordersPath), views('customers', customersPath)]);
    const queryResults: Array<Record<string, unknown>> = [];
    for (const query of QUERIES) {
      const engineMs: number[] = [];
      const ours = await medianSeconds(RUNS, async () => {
        const run = await runQuery(client, datasetId, { query_type: 'sql', sql: query.sql });
        engineMs.push(run.result?.exec_time_ms ?? Number.NaN);
      });
      const answer = (await runQuery(client, datasetId, { query_type: 'sql', sql: query.sql })).result?.rows ?? [];
      const inMemory = await medianSeconds(RUNS, () => loaded.con.runAndReadAll(query.sql));
      const csv = await medianSeconds(RUNS, () => overCsv.con.runAndReadAll(query.sql));
      const expected = (await loaded.con.runAndReadAll(query.sql)).getRowsJson() as unknown[][];
      if (comparable(answer) !== comparable(expected)) {
        throw new Error(`${query.name}: docagent answered ${comparable(answer)}, DuckDB ${comparable(expected)}`);
      }
      const oursText = `${ms(ours)} (engine ${median(engineMs).toFixed(0)} ms)`;
      rows.push([
        `SQL ${query.name}`,
        oursText,
        `${ms(inMemory)} (DuckDB in-process, tables in memory)`,
        (ours / inMemory).toFixed(1),
      ]);
      rows.push([`SQL ${query.name}`, oursText, `${ms(csv)} (DuckDB in-process, over the CSV files)`, (ours / csv).toFixed(2)]);
      queryResults.push({
        query: query.name,
        sql: query.sql,
        docagent_s: ours,
        docagent_engine_ms: median(engineMs),
        duckdb_in_memory_s: inMemory,
        duckdb_over_csv_s: csv,
      });
    }
    results.queries = queryResults;

    const pandasScript = join(dir, 'group_by.py');
    writeFileSync(
      pandasScript,
      `import json, sys\nimport pandas as pd\norders = pd.read_csv(sys.argv[1])\nresult = ${PANDAS_GROUP_BY}\nprint(json.dumps(result.values.tolist()))\n`,
    );
    const plain = () => {
      const out = spawnSync(PYTHON, [pandasScript, ordersPath], { encoding: 'utf8', maxBuffer: 1024 ** 2 });
      if (out.status !== 0) throw new Error(`${PYTHON} with pandas failed: ${out.stderr}`);
      return JSON.parse(out.stdout) as unknown[][];
    };
    const code = `result_df = ${PANDAS_GROUP_BY}`;
    const probe = await call<Run>(client, 'POST', '/runs', { dataset_id: datasetId, query_type: 'python', python_code: code });
    if (probe.status !== 'succeeded') {
      rows.push(['Python group by (pandas)', `not run: ${probe.error?.code} ${probe.error?.message}`, '', '']);
      results.python = { unavailable: probe.error };
    } else {
      const ours = await medianSeconds(PYTHON_RUNS, () =>
        runQuery(client, datasetId, { query_type: 'python', python_code: code }),
      );
      const baseline = await medianSeconds(PYTHON_RUNS, plain);
      const counts = (answer: unknown[][]) => JSON.stringify(answer.map((r) => [r[0], Number(r[1])]));
      if (counts(probe.result?.rows ?? []) !== counts(plain())) {
        throw new Error(`the pandas group-by differs: docagent ${counts(probe.result?.rows ?? [])}, python ${counts(plain())}`);
      }
      rows.push([
        `Python: ${PANDAS_GROUP_BY.split('.reset_index')[0]} (the sandbox loads both tables)`,
        s(ours),
        `${s(baseline)} (${PYTHON} with pandas, read_csv of orders.csv)`,
        (ours / baseline).toFixed(2),
      ]);
      results.python = { docagent_s: ours, plain_pandas_s: baseline };
    }
    loaded.close();
    overCsv.close();
    const header = [
      'measure',
      `docagent (median of ${RUNS}; ${UPLOAD_RUNS} uploads, ${PYTHON_RUNS} Python runs)`,
      'baseline',
      'docagent ÷ baseline',
    ];
    return { table: table(header, rows), results };
  } finally {
    await stack.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
