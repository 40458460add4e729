import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createOrganization, type Database, JobQueue, selectRows, TEXT_EXTRACTION_QUEUE } from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { jobCount, noModels, plainTextServices, until, uploadTexts } from './job-test-kit.ts';

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
      text: plainTextServices(database.db),
      extraction: { db: database.db, llm: noModels(database.db) },
    },
    { workers: 1, pollingIntervalSeconds: 3600 },
  );
});
after(async () => {
  await queue.stop();
  await database.close();
});

test('with an hour between polls, four uploads sent at once are all read by one worker', async () => {
  const documents = await uploadTexts(
    database.db,
    queue,
    orgId,
    ['one', 'two', 'three', 'four'].map((name) => ({ name: `${name}.txt`, text: `Invoice ${name}` })),
  );
  assert.equal(documents.length, 4);
  await until(
    'all four text jobs to complete',
    async () => (await jobCount(database.db, TEXT_EXTRACTION_QUEUE, 'completed')) === 4,
  );
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
