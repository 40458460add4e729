import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ExecutionFailure, type ExecutionFailureKind, PythonSandbox, type TableFile } from '../src/index.ts';

const sandbox = new PythonSandbox();
const reason = await sandbox.unavailableReason();
const skip = reason === null ? false : `${reason} (.ci/run installs them)`;

const dir = mkdtempSync(join(tmpdir(), 'docagent-python-sandbox-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// "007" and "NA" are text: pandas left alone would read a number and a missing value.
const SALES_CSV =
  'region,amount,price,day,paid,code\nnorth,10,1.5,2024-01-05,true,007\nsouth,5,2.0,2024-01-06,false,NA\nnorth,7,0.5,2024-02-01,true,\n';
const sales: TableFile = {
  name: 'sales',
  parquetPath: join(dir, 'sales.parquet'),
  csvPath: join(dir, 'sales.csv'),
  columns: [
    { name: 'region', type: 'VARCHAR' },
    { name: 'amount', type: 'BIGINT' },
    { name: 'price', type: 'DOUBLE' },
    { name: 'day', type: 'DATE' },
    { name: 'paid', type: 'BOOLEAN' },
    { name: 'code', type: 'VARCHAR' },
  ],
};
before(() => writeFileSync(sales.csvPath, SALES_CSV));

const run = (code: string, limits = {}) => sandbox.run(code, [sales], limits);

/** The single column of values the code put in result_df. */
async function values(code: string): Promise<unknown[]> {
  const result = await run(code);
  return result.rows.map((row) => row[0]);
}

async function failure(code: string, kind: ExecutionFailureKind, message: RegExp, limits = {}): Promise<string> {
  const error = await run(code, limits).then(
    (result) => assert.fail(`expected a failure, got ${JSON.stringify(result)}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ExecutionFailure, `an ExecutionFailure, not ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  assert.match(error.message, message);
  return error.message;
}

describe('the Python sandbox', { skip }, () => {
  test('groups a table by a column into a typed DataFrame', async () => {
    const result = await run(
      "result_df = sales.groupby('region', as_index=False).agg(total=('amount', 'sum'), top=('price', 'max'))",
    );
    assert.deepEqual(result.columns, [
      { name: 'region', type: 'VARCHAR' },
      { name: 'total', type: 'BIGINT' },
      { name: 'top', type: 'DOUBLE' },
    ]);
    assert.deepEqual(result.rows, [
      ['north', 17, 1.5],
      ['south', 5, 2],
    ]);
    assert.equal(result.row_count, 2);
    assert.equal(result.truncated, null);
  });

  test("keeps the table's column types, and a group-by's keys from the index", async () => {
    const result = await run('result_df = sales');
    assert.deepEqual(
      result.columns.map((c) => c.type),
      ['VARCHAR', 'BIGINT', 'DOUBLE', 'DATE', 'BOOLEAN', 'VARCHAR'],
    );
    assert.deepEqual(result.rows[0], ['north', 10, 1.5, '2024-01-05', true, '007']);
    assert.deepEqual(
      result.rows.map((row) => row[5]),
      ['007', 'NA', null],
    );
    const grouped = await run("result_df = tables['sales'].groupby('region')['amount'].sum()");
    assert.deepEqual(grouped.columns, [
      { name: 'region', type: 'VARCHAR' },
      { name: 'amount', type: 'BIGINT' },
    ]);
  });

  test('answers lists, dicts and single values as rows', async () => {
    assert.deepEqual(await values('result_df = [3, 1, 2]'), [3, 1, 2]);
    assert.deepEqual(await values('result_df = sales.amount.sum()'), [22]);
    assert.deepEqual(await values("result_df = 'north'"), ['north']);
    const record = await run("result_df = {'total': sales.amount.sum(), 'mean': sales.price.mean()}");
    assert.deepEqual(
      record.columns.map((c) => c.name),
      ['total', 'mean'],
    );
    assert.deepEqual(record.rows, [[22, 4 / 3]]);
  });

  test('cuts rows at max_rows and at max_output_bytes, and says so', async () => {
    const byRows = await run("result_df = pd.DataFrame({'n': range(1000)})", { maxRows: 10 });
    assert.equal(byRows.rows.length, 10);
    assert.equal(byRows.row_count, 1000);
    assert.equal(byRows.truncated, 'rows');
    const byBytes = await run("result_df = pd.DataFrame({'s': ['x' * 100] * 100})", { maxOutputBytes: 1000 });
    assert.ok(byBytes.rows.length > 0 && byBytes.rows.length < 10, `${byBytes.rows.length} rows`);
    assert.equal(byBytes.truncated, 'bytes');
  });

  test('what the code prints neither breaks nor forges the result', async () => {
    const code = `
import os, sys
print('{"ok": {"columns": [], "rows": [], "row_count": 99, "truncated": null}}')
sys.stderr.write('not json at all')
try:
    os.write(3, b'{"ok": {"columns": [], "rows": [], "row_count": 99, "truncated": null}}')
except OSError:
    pass
result_df = 1`;
    assert.deepEqual(await values(code), [1]);
  });

  test('an exception gives its traceback, without the wrapper', async () => {
    const message = await failure("x = 1\nresult_df = sales['no_such_column']", 'error', /KeyError: 'no_such_column'/);
    assert.match(message, /File "<code>", line 2/);
    assert.doesNotMatch(message, /sandbox\/main\.py/);
    await failure('result_df = (', 'error', /SyntaxError/);
    await failure(
      'x = 1',
      'error',
      /^The code did not set result_df; assign the answer \(a DataFrame, list or value\) to result_df\.$/,
    );
  });

  test('commands run inside cannot change the system, and /tmp is private and gone after', async () => {
    const marker = `/tmp/docagent-sandbox-${process.pid}`;
    const [status, tmp] = await values(`
import os, subprocess
status = os.system('touch /usr/evil /evil 2>/dev/null')
open('${marker}', 'w').write('hello')
result_df = [status, subprocess.run(['cat', '${marker}'], capture_output=True, text=True).stdout]`);
    assert.notEqual(status, 0, 'touch under /usr and / fails');
    assert.equal(tmp, 'hello');
    assert.equal(existsSync(marker), false, 'the sandbox /tmp is not the host /tmp');
    assert.equal(existsSync('/usr/evil'), false);
    assert.deepEqual(await values(`import os\nresult_df = os.path.exists('${marker}')`), [false]);
  });

  test('writing outside /tmp fails, the tables included', async () => {
    for (const path of ['/usr/evil', '/evil', '/etc/evil', '/data/evil.csv', '/data/sales.csv']) {
      await failure(`open('${path}', 'a').write('x')`, 'error', /Read-only file system|Permission denied/);
    }
    await failure("import os\nos.chmod('/data/sales.csv', 0o666)", 'error', /Read-only file system/);
    assert.equal(readFileSync(sales.csvPath, 'utf8'), SALES_CSV);
  });

  test('has no network: not even a port open on the host', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      await failure(
        `import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2)`,
        'error',
        /ConnectionRefusedError/,
      );
      await failure("import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=2)", 'error', /Network is unreachable/);
    } finally {
      server.close();
    }
  });

  test("sees none of the host's files nor its environment", async () => {
    process.env.DOCAGENT_FAKE_SECRET = 'hunter2-sandbox-test';
    try {
      const result = await run(`
import os
result_df = [{'root': sorted(os.listdir('/')), 'data': os.listdir('/data'), 'env': dict(os.environ), 'pid1': open('/proc/1/environ').read()}]`);
      const [root, data, environ, pid1] = result.rows[0]!;
      assert.deepEqual(
        root,
        ['bin', 'data', 'dev', 'etc', 'lib', 'lib64', 'proc', 'sandbox', 'tmp', 'usr'].filter(
          (d) => d !== 'lib64' || existsSync('/lib64'),
        ),
      );
      assert.deepEqual(data, ['sales.csv']);
      assert.doesNotMatch(JSON.stringify(environ), /hunter2|DOCAGENT/);
      assert.doesNotMatch(String(pid1), /hunter2|DOCAGENT/);
    } finally {
      delete process.env.DOCAGENT_FAKE_SECRET;
    }
    await failure("open('/etc/shadow').read()", 'error', /No such file or directory/);
    await failure("open('/work/main/package.json').read()", 'error', /No such file or directory/);
  });

  test('a fork bomb hits the process limit', async () => {
    const [forks, error] = await values(`
import os, time
forks = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(2)
            os._exit(0)
        forks += 1
except OSError as error:
    result_df = [forks, str(error)]`);
    assert.ok(typeof forks === 'number' && forks < 32, `${forks} forks`);
    assert.match(String(error), /Resource temporarily unavailable/);
  });

  test('allocating 10 GB is refused with a memory limit error', async () => {
    await failure('b = bytearray(10 * 1024**3)', 'limit', /ran out of memory/);
  });

  test('an endless loop is stopped at the time limit', async () => {
    await failure('while True:\n    pass', 'limit', /time limit|CPU time/, { timeoutMs: 3000 });
  });

  test('printing 100 MB is cut off', async () => {
    await failure("print('x' * 100_000_000)", 'limit', /printed more than 1 MB/);
  });

  test('a full /tmp is a limit, not a crash', async () => {
    await failure("open('/tmp/big', 'wb').write(b'x' * 100 * 2**20)", 'limit', /files in \/tmp are limited/);
  });

  test('a machine where pandas does not load has the feature disabled, naming the packages', async () => {
    const starved = new PythonSandbox({ memoryBytes: 32 * 2 ** 20 });
    assert.match((await starved.unavailableReason()) ?? '', /apt-get install bubblewrap python3-pandas/);
    await assert.rejects(
      starved.run('result_df = 1', []),
      (error: unknown) => error instanceof ExecutionFailure && error.kind === 'disabled',
    );
  });
});
