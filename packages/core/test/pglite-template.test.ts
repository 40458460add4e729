import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { migrationsFolder } from '../src/db/migrate.ts';
import { migrateDatabase, openDatabase, selectRows } from '../src/index.ts';
import { migratedPgliteTemplate } from '../src/testing/pglite-template.ts';

const journalEntries = () =>
  (JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;

test("the tests' embedded databases start migrated, without PostgreSQL's template databases, and work", async () => {
  const database = await openDatabase({ kind: 'pglite-memory', template: await migratedPgliteTemplate() }, 'test');
  try {
    const databases = await selectRows<{ datname: string }>(database.db, sql`select datname from pg_database`);
    assert.deepEqual(
      databases.map((row) => row.datname),
      ['postgres'],
    );
    const count = async () =>
      (await selectRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n;
    assert.equal(await count(), journalEntries(), 'every migration is applied in the dump');
    await migrateDatabase(database);
    assert.equal(await count(), journalEntries(), 'migrating it again finds nothing to do');
    await database.db.execute(sql`create table scratch (id int primary key, note text)`);
    await database.db.execute(sql`insert into scratch values (1, 'written')`);
    const rows = await selectRows<{ note: string }>(database.db, sql`select note from scratch where id = 1`);
    assert.deepEqual(rows, [{ note: 'written' }]);
  } finally {
    await database.close();
  }
});
