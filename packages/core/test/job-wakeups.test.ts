import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import {
  createOrganization,
  type Database,
  DatabaseBlobStore,
  JobQueue,
  ModelRegistry,
  selectRows,
  TEXT_EXTRACTION_QUEUE,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { jobCount, plainTextExtract } from './job-test-kit.ts';

/**
 * Workers poll only as a backstop (waking-queue.ts): here the poll is an hour, so the jobs below
 * run only if sending one wakes a worker and a worker that finished one looks for the next.
 */

let database: Database;
let queue: JobQueue;
let orgId: string;

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Wake-ups' })).id;
  queue = await JobQueue.start(
    database,
    {
      text: { db: database.db, blobs: new DatabaseBlobStore(database.db), extract: plainTextExtract },
      extraction: { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
    },
    { workers: 1, pollingIntervalSeconds: 3600 },
  );
});
after(async () => {
  await queue.stop();
  await database.close();
});

const completed = () => jobCount(database.db, TEXT_EXTRACTION_QUEUE, 'completed');

test('with an hour between polls, four uploads sent at once are all read by one worker', async () => {
  async function* text(value: string) {
    yield Buffer.from(value);
  }
  const documents = await uploadDocuments(
    { db: database.db, blobs: new DatabaseBlobStore(database.db), scheduler: queue },
    { orgId, role: 'admin', userId: null },
    ['one', 'two', 'three', 'four'].map((name) => ({ name: `${name}.txt`, content: text(`Invoice ${name}`) })),
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 4 },
  );
  assert.equal(documents.length, 4);
  const deadline = Date.now() + 60_000;
  while ((await completed()) < 4) {
    assert.ok(Date.now() < deadline, `only ${await completed()} of 4 text jobs ran`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const states = await selectRows<{ state: string }>(
    database.db,
    sql`select state from documents where org_id = ${orgId} order by name`,
  );
  // Read, and then waiting for a model (none is configured): the prompts' jobs ran too.
  assert.deepEqual(
    states.map((s) => s.state),
    ['ocr_completed', 'ocr_completed', 'ocr_completed', 'ocr_completed'],
  );
});
