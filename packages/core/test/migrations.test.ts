import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { type Database, migrateDatabase, openDatabase, selectRows } from '../src/index.ts';
import { createTestDatabaseTarget, testDatabaseKind } from '../src/testing/test-database.ts';

let database: Database;
let drop: () => Promise<void>;

before(async () => {
  const created = await createTestDatabaseTarget({ empty: true });
  drop = created.drop;
  database = await openDatabase(created.target, 'test');
});

const countMigrations = async () =>
  (await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n ?? 0;

after(async () => {
  await database.close();
  await drop();
});

test(`migrations apply from empty on ${testDatabaseKind()} and record themselves`, async () => {
  await migrateDatabase(database);
  const tables = await selectRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  const names = tables.map((r) => r.table_name);
  for (const t of ['api_tokens', 'login_failures', 'memberships', 'organizations', 'sessions', 'users']) {
    assert.ok(names.includes(t), `table ${t} exists (have: ${names.join(', ')})`);
  }
  const recorded = await countMigrations();
  assert.ok(recorded >= 1);
});

test('running migrations again changes nothing', async () => {
  const first = await countMigrations();
  await migrateDatabase(database);
  const afterRun = await countMigrations();
  assert.equal(afterRun, first);
});
