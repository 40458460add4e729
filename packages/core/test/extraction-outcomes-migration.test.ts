import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createOrganization, type Database, migrateDatabase, selectRows } from '../src/index.ts';
import { databaseBefore } from './migrations-before.ts';

/**
 * Migration 0011 (extraction outcomes): results stored before it become their prompts' successes,
 * documents the agent extracted at ocr_completed say llm_completed, and documents whose prompts
 * found no model wait for one.
 */

let database: Database;
let close: () => Promise<void>;

before(async () => {
  ({ database, close } = await databaseBefore('0011_extraction_outcomes'));
});

after(async () => {
  await close();
});

test('stored results become outcomes; agent-extracted documents say llm_completed; the others wait for a model', async () => {
  const { db } = database;
  const orgId = (await createOrganization(db, { name: 'Before outcomes' })).id;
  // Written as the code before 0011 wrote them (its tables lack the new column).
  await db.execute(sql`insert into blobs (id, size, sha256) values ('b1', 1, 'x')`);
  for (const [id, state] of [
    ['extracted-by-agent', 'ocr_completed'],
    ['no-model', 'ocr_completed'],
    ['done', 'llm_completed'],
    ['failed', 'llm_failed'],
  ]) {
    await db.execute(sql`insert into documents (id, org_id, name, mime_type, kind, state, blob_id, size_bytes, uploaded_by)
      values (${id}, ${orgId}, ${`${id}.txt`}, 'text/plain', 'text', ${state}, 'b1', 1, 'test')`);
  }
  await db.execute(sql`insert into prompts (id, org_id, name, is_default) values ('p1', ${orgId}, 'Summary', true)`);
  for (const version of [1, 2]) {
    await db.execute(sql`insert into prompt_revisions (id, prompt_id, version, name, content, created_by)
      values (${`p1v${version}`}, 'p1', ${version}, 'Summary', 'Summarize.', 'test')`);
  }
  for (const [docId, revid, version] of [
    ['extracted-by-agent', 'p1v1', 1],
    ['extracted-by-agent', 'p1v2', 2],
    ['done', 'p1v1', 1],
  ] as const) {
    await db.execute(sql`insert into extraction_results (id, org_id, document_id, prompt_id, prompt_revid, prompt_version, model, llm_result, updated_llm_result, updated_at)
      values (${`${docId}-${revid}`}, ${orgId}, ${docId}, 'p1', ${revid}, ${version}, 'openai:x', '{}', '{}', now() - make_interval(days => ${3 - version}))`);
  }

  await migrateDatabase(database);

  const outcomes = await selectRows<{ document_id: string; prompt_revid: string; succeeded: boolean }>(
    db,
    sql`select document_id, prompt_revid, succeeded from extraction_outcomes order by document_id`,
  );
  assert.deepEqual(outcomes, [
    { document_id: 'done', prompt_revid: 'p1v1', succeeded: true },
    { document_id: 'extracted-by-agent', prompt_revid: 'p1v2', succeeded: true },
  ]);
  const docs = await selectRows<{ id: string; state: string; waiting: boolean }>(
    db,
    sql`select id, state, llm_waiting_since is not null as waiting from documents order by id`,
  );
  assert.deepEqual(docs, [
    { id: 'done', state: 'llm_completed', waiting: false },
    { id: 'extracted-by-agent', state: 'llm_completed', waiting: false },
    { id: 'failed', state: 'llm_failed', waiting: false },
    { id: 'no-model', state: 'ocr_completed', waiting: true },
  ]);
});
