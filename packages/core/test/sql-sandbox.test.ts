import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openSandbox, type Sandbox } from '../src/data/sql/duckdb-sandbox.ts';
import { DEFAULT_ENGINE_SETTINGS } from '../src/index.ts';
import { type SqlTestTables, writeSqlTestTables } from './sql-tables.ts';

/**
 * The engine's own refusals, with no policy in front: what a query could do if the policy
 * let it through. The views still read their Parquet files; nothing else can be read.
 */

let tables: SqlTestTables;
let sandbox: Sandbox;

before(async () => {
  tables = await writeSqlTestTables();
  sandbox = await openSandbox([tables.orders, tables.customers], DEFAULT_ENGINE_SETTINGS);
});

after(() => {
  sandbox.close();
  tables.remove();
});

const run = async (sql: string) => (await sandbox.connection.runAndReadAll(sql)).getRowsJson();

test('the views read their Parquet files with external access off', async () => {
  assert.deepEqual(await run('SELECT count(*) FROM orders'), [['20']]);
  assert.deepEqual(await run("SELECT current_setting('enable_external_access'), current_setting('lock_configuration')"), [
    [false, true],
  ]);
});

const refused = /Permission Error|disabled by configuration|configuration has been locked/;

/** What a query could try, and how the engine answers (a refusal, unless said otherwise). */
const escapes: Array<[string, (t: SqlTestTables) => string, RegExp?]> = [
  ['read_csv of /etc/passwd', () => "SELECT * FROM read_csv('/etc/passwd')"],
  // No replacement scan applies to a name without a known extension: no such table.
  ['a replacement scan of /etc/passwd', () => "SELECT * FROM '/etc/passwd'", /Table with name \/etc\/passwd does not exist/],
  ['read_text', () => "SELECT * FROM read_text('/etc/hostname')"],
  ['another Parquet file of the same folder', (t) => `SELECT * FROM read_parquet('${t.otherPath}')`],
  ['a replacement scan of that file', (t) => `SELECT * FROM '${t.otherPath}'`],
  ['a path to it through a table file', (t) => `SELECT * FROM read_parquet('${t.orders.parquetPath}/../secret.parquet')`],
  ['glob', () => "SELECT * FROM glob('/etc/*')"],
  ['COPY TO', () => "COPY (SELECT 1) TO '/tmp/docagent-sandbox-escape.csv'"],
  ['ATTACH', () => "ATTACH '/tmp/docagent-sandbox-escape.db'"],
  ['INSTALL', () => 'INSTALL httpfs'],
  ['LOAD', () => 'LOAD httpfs'],
  ['a URL', () => "SELECT * FROM read_csv('https://example.com/x.csv')"],
  ['turning external access back on', () => 'SET enable_external_access = true'],
  ['widening allowed_paths', () => "SET allowed_paths = ['/etc/passwd']"],
  ['RESET of the lock', () => 'RESET lock_configuration'],
  ['spilling to disk', () => "SET temp_directory = '/tmp'"],
];

for (const [what, sql, answer] of escapes) {
  test(`the engine refuses ${what} even without the policy`, async () => {
    await assert.rejects(run(sql(tables)), answer ?? refused);
  });
}
