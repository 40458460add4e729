import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { createOrganization, createTag, type Database, inOneSnapshot, listTags, tables } from '../src/index.ts';
import { openTestDatabase, testDatabaseKind } from '../src/testing/test-database.ts';

let database: Database;
let orgId: string;

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'snapshot org' })).id;
});
after(async () => {
  await database.close();
});

const tagCount = async (db: Database['db']) =>
  (await db.select({ n: count() }).from(tables.tags).where(eq(tables.tags.orgId, orgId)))[0]?.n;

test('reads in one snapshot agree: a row committed on another connection between them is seen by neither', async () => {
  await createTag(database.db, orgId, { name: 'first' });
  let committing: Promise<unknown> | undefined;
  const [before, afterCommit] = await inOneSnapshot(database.db, async (snapshot) => {
    const first = await tagCount(snapshot);
    committing = createTag(database.db, orgId, { name: 'second' });
    // PostgreSQL commits it on another pooled connection now; the embedded database's one session
    // lets it in only once the snapshot has ended, which is what keeps the reads together there.
    if (testDatabaseKind() === 'postgres') await committing;
    return [first, await tagCount(snapshot)];
  });
  await committing;
  assert.equal(before, 1);
  assert.equal(afterCommit, 1, 'the second read saw the first read’s database');
  assert.equal(await tagCount(database.db), 2);
  const page = await listTags(database.db, orgId, { skip: 0, limit: 10 });
  assert.deepEqual({ names: page.tags.map((t) => t.name), total: page.total }, { names: ['first', 'second'], total: 2 });
});

test('a snapshot is for reading: a write inside it is refused and leaves nothing', async () => {
  await assert.rejects(
    inOneSnapshot(database.db, (snapshot) => createTag(snapshot, orgId, { name: 'written in a read' })),
    (error: Error) => /read-only transaction/.test(String((error.cause as Error | undefined)?.message)),
  );
  const page = await listTags(database.db, orgId, { skip: 0, limit: 10, nameSearch: 'written' });
  assert.equal(page.total, 0);
});
