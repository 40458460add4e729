import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  createOrganization,
  createUser,
  type Database,
  DatabaseBlobStore,
  deleteDocument,
  migrateDatabase,
  selectRows,
} from '../src/index.ts';
import { databaseBefore } from './migrations-before.ts';

/**
 * Migration 0010 (agent subjects): threads, turns and run records written before it keep
 * everything, name their document as subject, and take the new working-state shape.
 */

let database: Database;
let close: () => Promise<void>;

before(async () => {
  ({ database, close } = await databaseBefore('0010_agent_subjects'));
});

after(async () => {
  await close();
});

test('existing threads, turns and run records are kept, about their document, in the new shape', async () => {
  const { db } = database;
  const orgId = (await createOrganization(db, { name: 'Before' })).id;
  const userId = (await createUser(db, { email: 'before@example.test', password: 'a long enough password' })).id;
  const services = { db, blobs: new DatabaseBlobStore(db), scheduler: { scheduleTextExtraction: async () => {} } };
  // Written in SQL: today's code writes columns later migrations added.
  const docId = 'd1';
  await db.execute(sql`insert into blobs (id, size, sha256) values ('b1', 9, 'x')`);
  await db.execute(sql`insert into documents (id, org_id, name, mime_type, kind, state, blob_id, size_bytes, uploaded_by)
    values (${docId}, ${orgId}, 'a.txt', 'text/plain', 'text', 'uploaded', 'b1', 9, ${userId})`);
  const oldState = JSON.stringify({
    schemaRevid: 's1',
    promptRevid: 'p1',
    extraction: { promptRevid: 'p1', values: { total: 7 } },
  });
  const messages = JSON.stringify([
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ]);
  await db.execute(sql`insert into agent_threads (id, org_id, user_id, document_id, title, messages, working_state)
    values ('th1', ${orgId}, ${userId}, ${docId}, 'Old', ${messages}::jsonb, ${oldState}::jsonb)`);
  await db.execute(sql`insert into agent_turns (id, org_id, user_id, document_id, thread_id, status, messages, pending, working_state, settings, progress, expires_at)
    values ('tu1', ${orgId}, ${userId}, ${docId}, 'th1', 'paused', ${messages}::jsonb, '{"kind":"approval","roundIndex":0,"calls":[]}'::jsonb,
      ${oldState}::jsonb, '{"model":"openai:x","maxSteps":10,"autoApprove":false,"autoApprovedTools":[],"mentions":""}'::jsonb,
      '{"steps":1,"audit":[{"name":"get_ocr_text"}],"text":"","thinking":"","executedRounds":[],"usage":{}}'::jsonb, now() + interval '5 minutes')`);
  await db.execute(sql`insert into agent_run_records (id, org_id, turn_id, user_id, document_id, model, status, tool_calls, usage)
    values ('tu1', ${orgId}, 'tu1', ${userId}, ${docId}, 'openai:x', 'paused', '[{"name":"get_ocr_text"}]'::jsonb, '{}'::jsonb)`);

  await migrateDatabase(database);

  const [thread] = await selectRows<{
    subject_kind: string;
    subject_id: string;
    working_state: unknown;
    messages: unknown[];
    strategy: string;
  }>(db, sql`select subject_kind, subject_id, working_state, messages, strategy from agent_threads where id = 'th1'`);
  assert.deepEqual(
    { ...thread, messages: thread?.messages.length },
    {
      subject_kind: 'document',
      subject_id: docId,
      working_state: { schema_revid: 's1', prompt_revid: 'p1', extraction: { total: 7 } },
      messages: 2,
      strategy: 'react',
    },
  );
  const [turn] = await selectRows<{
    subject_id: string;
    state_version: number;
    messages: unknown[];
    settings: { strategy: string };
    progress: Record<string, unknown>;
    working_state: unknown;
  }>(db, sql`select subject_id, state_version, messages, settings, progress, working_state from agent_turns where id = 'tu1'`);
  assert.equal(turn?.subject_id, docId);
  assert.equal(turn?.state_version, 2);
  assert.deepEqual(turn?.messages, [], 'a turn on a thread keeps its messages there');
  assert.equal(turn?.settings.strategy, 'react');
  assert.equal('audit' in (turn?.progress ?? {}), false, 'the audit lives in the run record');
  assert.deepEqual(turn?.working_state, { schema_revid: 's1', prompt_revid: 'p1', extraction: { total: 7 } });
  const [record] = await selectRows<{ subject_kind: string; subject_id: string; tool_calls: unknown[] }>(
    db,
    sql`select subject_kind, subject_id, tool_calls from agent_run_records where id = 'tu1'`,
  );
  assert.deepEqual(record, { subject_kind: 'document', subject_id: docId, tool_calls: [{ name: 'get_ocr_text' }] });

  // Deleting the document still takes its conversations with it; the audit stays.
  await deleteDocument(services, orgId, docId);
  const left = await selectRows<{ n: number }>(
    db,
    sql`select (select count(*) from agent_threads)::int + (select count(*) from agent_turns)::int as n`,
  );
  assert.equal(left[0]?.n, 0);
  assert.equal((await selectRows(db, sql`select id from agent_run_records`)).length, 1);
});
