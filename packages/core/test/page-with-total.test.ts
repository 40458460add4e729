import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { createOrganization, createTag, type Database, listTags, pageWithTotal, tables, totalColumn } from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let orgId: string;

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'paged org' })).id;
  for (const name of ['alpha', 'beta', 'gamma']) await createTag(database.db, orgId, { name });
});
after(async () => {
  await database.close();
});

test('page and total come from one statement: the total rides on each row and is taken off it', async () => {
  const statements: string[] = [];
  const { tags } = tables;
  const counted = database.db.select({ n: count() }).from(tags).where(eq(tags.orgId, orgId));
  const query = database.db
    .select({ name: tags.name, total: totalColumn(counted) })
    .from(tags)
    .where(eq(tags.orgId, orgId))
    .orderBy(tags.name)
    .limit(2);
  statements.push(query.toSQL().sql);
  const page = await pageWithTotal(await query, 0, () => {
    statements.push('a second statement');
    return counted;
  });
  assert.deepEqual(page, { rows: [{ name: 'alpha' }, { name: 'beta' }], total: 3 });
  assert.equal(statements.length, 1, 'the count was not run on its own');
  assert.match(statements[0] ?? '', /^select .*\(select count\(\*\) from "tags" where "tags"."org_id" = \$\d\).* limit \$\d$/);
});

test('a page past the end has no row to carry the total: it is counted on its own', async () => {
  assert.deepEqual(await listTags(database.db, orgId, { skip: 10, limit: 5 }), { tags: [], total: 3 });
  assert.deepEqual(await listTags(database.db, orgId, { skip: 0, limit: 5, nameSearch: 'no such tag' }), { tags: [], total: 0 });
});

test('the total counts what the filter keeps, not only the page', async () => {
  const page = await listTags(database.db, orgId, { skip: 1, limit: 1, nameSearch: 'a' });
  assert.deepEqual(
    { names: page.tags.map((t) => t.name), total: page.total, keys: Object.keys(page.tags[0] ?? {}).includes('total') },
    { names: ['beta'], total: 3, keys: false },
  );
});
