import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDbSqlRunner, ExecutionFailure, type QueryResult, SqlRunnerPool, type TableFile } from '../src/index.ts';
import { type SqlTestTables, writeSqlTestTables } from './sql-tables.ts';

let fixtures: SqlTestTables;
let tables: TableFile[];
let runner: DuckDbSqlRunner;

before(async () => {
  fixtures = await writeSqlTestTables();
  tables = [fixtures.orders, fixtures.customers];
  runner = new DuckDbSqlRunner();
});

after(async () => {
  await runner.close();
  fixtures.remove();
});

const failure = async (promise: Promise<QueryResult>): Promise<ExecutionFailure> => {
  const error = await promise.then(
    () => assert.fail('the query succeeded'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ExecutionFailure, `not an ExecutionFailure: ${error}`);
  return error;
};

const isGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a select answers columns with DuckDB types and JSON rows', async () => {
  const result = await runner.run('SELECT id, amount, status, ordered_on, note FROM orders ORDER BY id LIMIT 5', tables);
  assert.deepEqual(
    result.columns.map((c) => `${c.name} ${c.type}`),
    ['id BIGINT', 'amount DECIMAL(10,2)', 'status VARCHAR', 'ordered_on DATE', 'note VARCHAR'],
  );
  assert.deepEqual(result.rows[0], [1, 10.5, 'paid', '2024-01-02', 'note 1']);
  assert.deepEqual(result.rows[4], [5, 50.5, 'it\'s "odd"', '2024-01-06', null]);
  assert.equal(result.row_count, 5);
  assert.equal(result.truncated, null);
  assert.ok(result.exec_time_ms >= 0);
});

test('group by and a join of two tables', async () => {
  const grouped = await runner.run('SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status', tables);
  assert.deepEqual(grouped.rows, [
    ['it\'s "odd"', 7],
    ['open', 6],
    ['paid', 7],
  ]);
  const joined = await runner.run(
    'SELECT c.city, sum(o.amount) AS total FROM orders o JOIN customers c ON o.customer_id = c.id WHERE c.city IS NOT NULL GROUP BY c.city ORDER BY c.city',
    tables,
  );
  assert.deepEqual(joined.rows, [
    ['Lyon', 452.5],
    ['Paris', 1105],
  ]);
});

test('values become JSON: big integers as text, BLOB as base64, timestamps in ISO 8601, lists and structs', async () => {
  const result = await runner.run(
    "SELECT 9007199254740993::BIGINT AS big, 42::HUGEINT AS small, 'abc'::BLOB AS b, TIMESTAMP '2024-01-02 03:04:05.5' AS ts, TIMESTAMPTZ '2024-01-02 03:04:05+00' AS tz, [1, 2] AS l, {'a': 1, 'b': [true]} AS s, 'nan'::DOUBLE AS n",
    [],
  );
  assert.deepEqual(result.rows[0], [
    '9007199254740993',
    42,
    'YWJj',
    '2024-01-02T03:04:05.5',
    '2024-01-02T03:04:05+00:00',
    [1, 2],
    { a: 1, b: [true] },
    'NaN',
  ]);
});

test("an SQL error comes back with DuckDB's message", async () => {
  const error = await failure(runner.run('SELECT nope FROM orders', tables));
  assert.equal(error.kind, 'error');
  assert.match(error.message, /Binder Error: Referenced column "nope" not found/);
});

test('a refused query never runs', async () => {
  const error = await failure(runner.run(`SELECT * FROM read_parquet('${fixtures.otherPath}')`, tables));
  assert.equal(error.kind, 'policy');
  assert.equal(error.code, 'SQL_POLICY_VIOLATION');
  const write = await failure(runner.run('DROP VIEW orders', tables));
  assert.equal(write.kind, 'policy');
  assert.equal((await runner.run('SELECT count(*) FROM orders', tables)).rows[0]?.[0], 20);
});

test('values are bound to $n placeholders, and a missing one is said plainly', async () => {
  const result = await runner.run('SELECT id FROM orders WHERE status = $1 AND id < $2 ORDER BY id', tables, {}, ['open', 10]);
  assert.deepEqual(result.rows, [[3], [6], [9]]);
  const error = await failure(runner.run('SELECT id FROM orders WHERE id = $1', tables));
  assert.match(error.message, /1 parameter placeholders .* but 0 values were given/);
});

test('ten million rows are cut at max_rows without being read', async () => {
  const result = await runner.run('SELECT * FROM range(10000000)', [], { maxRows: 50 });
  assert.equal(result.truncated, 'rows');
  assert.equal(result.rows.length, 50);
  assert.deepEqual(result.rows[49], [49]);
  // A lower bound: the stream is read a little past the cut, never to its end.
  assert.ok(result.row_count > 50 && result.row_count < 10_000_000, `row_count ${result.row_count}`);
});

test('a result is cut at max_output_bytes', async () => {
  const result = await runner.run("SELECT repeat('x', 100) AS s FROM range(1000)", [], { maxOutputBytes: 1000 });
  assert.equal(result.truncated, 'bytes');
  assert.ok(result.rows.length >= 5 && result.rows.length < 10, `${result.rows.length} rows`);
  assert.ok(Buffer.byteLength(JSON.stringify(result.rows)) <= 1000);
  assert.equal(result.row_count, 1000);
});

test('a cross join of a trillion rows is killed at the time limit, and the next query gets a fresh child', async () => {
  await runner.run('SELECT 1', []);
  const before = runner.pid!;
  const error = await failure(
    runner.run('SELECT sum(x.range * y.range) FROM range(1000000) x, range(1000000) y', [], { timeoutMs: 2000 }),
  );
  assert.equal(error.kind, 'limit');
  assert.equal(error.code, 'LIMIT_EXCEEDED');
  assert.match(error.message, /^The query ran longer than 2 s and was stopped; /);
  await until('the killed child is gone', () => isGone(before));
  const next = await runner.run('SELECT count(*) FROM orders', tables);
  assert.deepEqual(next.rows, [[20]]);
  assert.notEqual(runner.pid, before);
});

test('a recursive CTE without end is stopped by a limit', async () => {
  const error = await failure(
    runner.run('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r', [], { timeoutMs: 2000 }),
  );
  assert.equal(error.kind, 'limit');
  assert.equal((await runner.run('SELECT 2 AS two', [])).rows[0]?.[0], 2);
});

test('a child that dies under a query (as the OOM killer would do it) fails that query with a limit, and is replaced', async () => {
  await runner.run('SELECT 1', []);
  const pid = runner.pid!;
  const running = runner.run('SELECT sum(x.range * y.range) FROM range(1000000) x, range(1000000) y', [], { timeoutMs: 60_000 });
  setTimeout(() => process.kill(pid, 'SIGKILL'), 300);
  const error = await failure(running);
  assert.equal(error.kind, 'limit');
  assert.match(error.message, /The SQL engine stopped while running the query \(SIGKILL\)/);
  assert.deepEqual((await runner.run('SELECT 3', [])).rows, [[3]]);
  assert.notEqual(runner.pid, pid);
});

test('queries sent together run one after the other', async () => {
  const results = await Promise.all([1, 2, 3].map((n) => runner.run(`SELECT ${n} AS n`, [])));
  assert.deepEqual(
    results.map((r) => r.rows[0]?.[0]),
    [1, 2, 3],
  );
});

test('a limit that is not a positive number is refused', async () => {
  const error = await failure(runner.run('SELECT 1', [], { maxRows: 0 }));
  assert.match(error.message, /The limit maxRows is 0; give a positive number/);
});

test('past the memory limit a query fails with a limit', async () => {
  const small = new DuckDbSqlRunner({ engine: { memoryLimit: '64MB', threads: 1 } });
  try {
    const error = await failure(small.run('SELECT list(range) FROM range(50000000)', []));
    assert.equal(error.kind, 'limit');
    assert.match(error.message, /more than the 64MB memory limit/);
  } finally {
    await small.close();
  }
});

test('an idle child is ended, and the next query starts another', async () => {
  const idle = new DuckDbSqlRunner({ idleMs: 100 });
  try {
    await idle.run('SELECT 1', []);
    const pid = idle.pid!;
    await until('the idle child is ended', () => idle.pid === undefined && isGone(pid));
    assert.deepEqual((await idle.run('SELECT 4', [])).rows, [[4]]);
  } finally {
    await idle.close();
  }
});

test('the pool keeps one child per organization and closes them all', async () => {
  const pool = new SqlRunnerPool();
  const a = pool.forOrganization('org-a');
  const b = pool.forOrganization('org-b');
  assert.equal(pool.forOrganization('org-a'), a);
  await Promise.all([a.run('SELECT 1', []), b.run('SELECT 1', [])]);
  const pids = [a.pid!, b.pid!];
  assert.notEqual(pids[0], pids[1]);
  await pool.closeAll();
  assert.ok(pids.every(isGone));
  const closed = await failure(a.run('SELECT 1', []));
  assert.match(closed.message, /shut down/);
});
