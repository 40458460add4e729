import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { type Database, nameRepeatedStatements } from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;

before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

/** A pool of one connection, so that pg_prepared_statements shows what its statements left. */
async function withOneConnection(named: boolean, use: (pool: pg.Pool) => Promise<void>): Promise<void> {
  const pool = new pg.Pool({ ...database.connection, max: 1 });
  // pool.end() resolves before its connection has closed; dropping the test database then ends it.
  pool.on('error', () => {});
  if (named) nameRepeatedStatements(pool);
  try {
    await use(pool);
  } finally {
    await pool.end();
  }
}

const namesHolding = async (pool: pg.Pool, marker: string) =>
  (
    await pool.query<{ name: string }>(
      `select name from pg_prepared_statements where statement like '%${marker}%' and statement not like '%pg_prepared_statements%'`,
    )
  ).rows.map((r) => r.name);

test('a statement with parameters sent a second time becomes a named statement of its connection', async () => {
  await withOneConnection(true, async (pool) => {
    const ask = async () => (await pool.query({ text: "select $1::int + 1 as n, 'repeated-marker' as m", values: [41] })).rows;
    assert.deepEqual(await ask(), [{ n: 42, m: 'repeated-marker' }]);
    assert.deepEqual(await namesHolding(pool, 'repeated-marker'), [], 'sent once: unnamed');
    for (let i = 0; i < 3; i++) assert.deepEqual(await ask(), [{ n: 42, m: 'repeated-marker' }]);
    const names = await namesHolding(pool, 'repeated-marker');
    assert.equal(names.length, 1, 'one named statement, parsed once');
    assert.match(names[0] as string, /docagent_\d+$/);
  });
});

test('a text without parameters stays unnamed: it may hold several statements, as a migration does', async () => {
  await withOneConnection(true, async (pool) => {
    for (let i = 0; i < 3; i++) await pool.query({ text: "select 'several-marker' as m; select 2 as n", values: [] });
    assert.deepEqual(await namesHolding(pool, 'several-marker'), []);
  });
});

test('without it (DATABASE_NAMED_STATEMENTS=false: a pooler that loses named statements) everything goes unnamed', async () => {
  await withOneConnection(false, async (pool) => {
    for (let i = 0; i < 3; i++) await pool.query({ text: "select $1::int as n, 'unnamed-marker' as m", values: [1] });
    assert.deepEqual(await namesHolding(pool, 'unnamed-marker'), []);
  });
});

test("values given apart from the text, as drizzle gives them, count as the statement's", async () => {
  await withOneConnection(true, async (pool) => {
    for (let i = 0; i < 3; i++) await pool.query({ text: "select $1::int as n, 'apart-marker' as m" }, [1]);
    assert.equal((await namesHolding(pool, 'apart-marker')).length, 1);
  });
});
