import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CsvToParquet,
  createDataset,
  createOrganization,
  createUser,
  type Database,
  DatabaseBlobStore,
  type DataRunServices,
  ExecutionFailure,
  listDataRuns,
  type QueryResult,
  TableFileCache,
  uploadDocuments,
} from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import {
  AgentEngine,
  type AgentEvent,
  dataPack,
  fastQueryOf,
  reactStrategy,
  SubjectCatalog,
  ThreadStore,
  TurnStore,
} from '../src/index.ts';
import { offlineServices } from './offline-services.ts';
import { gatewayOf, streamPartsOf } from './scripted-gateway.ts';

/** The data pack in the engine, with a scripted model and executors that answer from the SQL text. */

let database: Database;
let cacheDir: string;
let converter: CsvToParquet;
let data: DataRunServices;
let access: { orgId: string; role: 'admin'; userId: string };
let datasetId: string;
const PYTHON_MISSING = 'Python is not installed here: apt-get install bubblewrap python3-pandas.';

const answer = (rows: unknown[][]): QueryResult => ({
  columns: [{ name: 'total', type: 'DOUBLE' }],
  rows,
  row_count: rows.length,
  truncated: null,
  exec_time_ms: 2,
});

before(async () => {
  database = await openTestDatabase();
  const { db } = database;
  const org = await createOrganization(db, { name: 'Data' });
  const user = await createUser(db, { email: 'data@example.test', password: 'a long enough password' });
  access = { orgId: org.id, role: 'admin', userId: user.id };
  cacheDir = await mkdtemp(join(tmpdir(), 'data-pack-'));
  converter = new CsvToParquet({ tempDir: join(cacheDir, 'spill') });
  const blobs = new DatabaseBlobStore(db);
  data = {
    db,
    blobs,
    tableFiles: new TableFileCache(cacheDir, blobs),
    converter,
    scheduler: { scheduleTableIngest: async () => {} },
    syncIngestMaxBytes: 1e6,
    sqlFor: () => ({
      async run(sql) {
        if (sql.includes('amout')) throw new ExecutionFailure('error', 'Binder Error: Referenced column "amout" not found');
        return answer([[22]]);
      },
      async close() {},
    }),
    python: { unavailableReason: async () => PYTHON_MISSING, run: async () => answer([]) },
    limits: { maxRows: 200 },
  };
  async function* csv() {
    yield Buffer.from('region,amount\nnorth,12\nsouth,10\n');
  }
  const [doc] = await uploadDocuments(
    { db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
    access,
    [{ name: 'sales.csv', content: csv() }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 1 },
  );
  datasetId = (await createDataset(data, access, { name: 'Sales', documentIds: [doc?.id ?? ''] })).id;
});
after(async () => {
  await converter.close();
  await database.close();
  await rm(cacheDir, { recursive: true, force: true });
});

type Call = { id: string; name: string; input: unknown };

/** A model answering each step from the list, recording its prompts. */
function scripted(steps: Array<{ text?: string; calls?: Call[] }>) {
  let index = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      const step = steps[index++];
      if (!step) throw new Error('the script has no more steps');
      return { stream: convertArrayToReadableStream(streamPartsOf(step)) };
    },
  });
  const engine = new AgentEngine({
    llm: gatewayOf(model),
    subjects: new SubjectCatalog([dataPack]),
    turns: new TurnStore(database.db, 300),
    threads: new ThreadStore(database.db),
    strategies: [reactStrategy],
    heartbeatMs: 10_000,
    services: offlineServices(database.db, { blobs: data.blobs, data }),
  });
  return { model, engine };
}

async function ask(engine: AgentEngine, question: string) {
  const events: AgentEvent[] = [];
  const result = await engine.start(
    { access, subject: { kind: 'dataset', id: datasetId }, messages: [{ role: 'user', content: question }] },
    (e) => {
      events.push(e);
    },
  );
  const failures = events.flatMap((e) => (e.type === 'tool_result' && !e.success ? [e.error ?? ''] : []));
  return { result, failures };
}

describe('the data tools in a turn', () => {
  test('a query error reaches the model with its code and message; the fixed query answers; both are runs', async () => {
    const question = 'Total sales?';
    const { model, engine } = scripted([
      { calls: [{ id: 'c1', name: 'execute_sql', input: { sql: 'SELECT sum(amout) AS total FROM sales' } }] },
      { calls: [{ id: 'c2', name: 'execute_sql', input: { sql: 'SELECT sum(amount) AS total FROM sales' } }] },
      { text: 'The total is 22.' },
    ]);
    const { result } = await ask(engine, question);
    assert.equal(result.text, 'The total is 22.');
    const system = JSON.stringify(model.doStreamCalls[0]?.prompt);
    assert.match(system, /Dataset \\"Sales\\"/);
    assert.match(system, /sales, 2 rows: \\"region\\" VARCHAR, \\"amount\\" BIGINT/);
    assert.match(system, /execute_python is not available on this server/);
    assert.match(JSON.stringify(model.doStreamCalls[1]?.prompt), /EXECUTION_ERROR: Binder Error: Referenced column/);
    const runs = (await listDataRuns(database.db, access.orgId, { skip: 0, limit: 10, datasetId })).runs;
    assert.deepEqual(
      runs.map((r) => [r.status, r.question]),
      [
        ['succeeded', question],
        ['failed', question],
      ],
    );
    assert.equal(result.working_state.last_run_id, runs[0]?.id);
  });

  test('Python where the sandbox is missing, and a plan naming an unknown column, answer their codes', async () => {
    const { engine } = scripted([
      {
        calls: [
          { id: 'p1', name: 'execute_python', input: { code: 'result_df = sales' } },
          { id: 'q1', name: 'execute_query_plan', input: { plan: { table: 'sales', select: ['price'] } } },
        ],
      },
      { text: 'I could not.' },
    ]);
    const { failures } = await ask(engine, 'Try both.');
    assert.deepEqual(failures, [
      `FEATURE_DISABLED: ${PYTHON_MISSING}`,
      'PLAN_VALIDATION_ERROR: The column "price" (in select) is not in table "sales"; its columns are: region, amount.',
    ]);
  });

  test('the schema tool names tables as SQL writes them', async () => {
    const { model, engine } = scripted([
      { calls: [{ id: 's1', name: 'get_dataset_schema', input: {} }] },
      { calls: [{ id: 'l1', name: 'list_datasets', input: {} }] },
      { text: 'Seen.' },
    ]);
    const { failures } = await ask(engine, 'What is there?');
    assert.deepEqual(failures, []);
    const prompt = JSON.stringify(model.doStreamCalls[2]?.prompt);
    assert.match(prompt, /"table_name":"sales","status":"ready","row_count":2/);
    assert.match(prompt, /"datasets":\[.*"name":"Sales","description":""/);
  });
});

describe('the fast path prefix', () => {
  test('SQL: and PYTHON: in any case, code as written; anything else goes to the agent', () => {
    assert.deepEqual(fastQueryOf('SQL: SELECT 1'), { mode: 'sql', sql: 'SELECT 1' });
    assert.deepEqual(fastQueryOf('  sql:\n```sql\nSELECT 2\n```'), { mode: 'sql', sql: 'SELECT 2' });
    assert.deepEqual(fastQueryOf('Python: result_df = 1'), { mode: 'python', code: 'result_df = 1' });
    assert.deepEqual(fastQueryOf('PYTHON:\n    x = 1\n    if x:\n        result_df = x\n'), {
      mode: 'python',
      code: 'x = 1\nif x:\n    result_df = x',
    });
    assert.equal(fastQueryOf('What does SQL: mean?'), null);
    assert.throws(() => fastQueryOf('PYTHON:  \n'), /must be followed by the code/);
  });
});
