import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { type Database, type Db, nameStatements, preparedPerDatabase, selectRows } from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;

before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  nameStatements(true);
  await database.close();
});

/** A prepared read, and the named statements of the connection it ran on that hold its text. */
async function runPrepared(marker: string): Promise<{ answer: unknown; names: string[] }> {
  const read = preparedPerDatabase((db) =>
    db
      .select({
        n: sql<number>`${sql.placeholder('n')}::int + 1`.as('n'),
        marker: sql<string>`${sql.raw(`'${marker}'`)}::text`.as('m'),
      })
      .from(sql`(select 1) as one`),
  );
  // A transaction keeps both statements on one connection.
  return database.db.transaction(async (tx) => {
    const [row] = await read(tx as unknown as Db).execute({ n: 41 });
    const rows = await selectRows<{ name: string }>(
      tx as unknown as Db,
      sql`select name from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`,
    );
    return { answer: row?.n, names: rows.map((r) => r.name) };
  });
}

test('a prepared read is a named statement of its connection, parsed once', async () => {
  nameStatements(true);
  const first = await runPrepared('named-marker');
  assert.equal(first.answer, 42);
  assert.equal(first.names.length, 1, 'one named statement holds the text');
  assert.match(first.names[0] as string, /docagent_\d+$/);
});

test('with DATABASE_NAMED_STATEMENTS=false (a pooler that loses named statements) it goes unnamed', async () => {
  nameStatements(false);
  try {
    const unnamed = await runPrepared('unnamed-marker');
    assert.equal(unnamed.answer, 42);
    assert.deepEqual(unnamed.names, []);
  } finally {
    nameStatements(true);
  }
});
