import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AUTO_CREATE_QUEUE, createOrganization, type Database, JobQueue, TEXT_EXTRACTION_QUEUE } from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { jobCount, noModels, plainTextServices, until, uploadTexts } from './job-test-kit.ts';

let database: Database;
let queue: JobQueue;
let orgId: string;

/** Stands in for the headless agent: records each run and holds it until released. */
const runs: string[] = [];
let releaseRun = () => {};
const held = new Promise<void>((resolve) => {
  releaseRun = resolve;
});

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Queue' })).id;
  queue = await JobQueue.start(
    database,
    {
      text: plainTextServices(database.db),
      extraction: { db: database.db, llm: noModels(database.db) },
      autoCreate: {
        run: async (documentId) => {
          runs.push(documentId);
          await held;
        },
      },
    },
    { workers: 2, pollingIntervalSeconds: 0.5 },
  );
});
after(async () => {
  releaseRun();
  await queue.stop();
  await database.close();
});

test('text extracted again while auto-create runs queues no second run of the document', async () => {
  const [doc] = await uploadTexts(database.db, queue, orgId, [
    { name: 'invoice.txt', text: 'INVOICE 2024-117', autoCreate: true },
  ]);
  assert.ok(doc);
  await until('the auto-create run', () => runs.length === 1);

  // A retried or repeated text job finds the document still waiting for auto-create (the
  // stand-in never moves it on) and asks for a run again while the first one runs.
  await queue.scheduleTextExtraction(doc.id);
  await until('the second text job', async () => (await jobCount(database.db, TEXT_EXTRACTION_QUEUE, 'completed')) === 2);
  assert.equal(await jobCount(database.db, AUTO_CREATE_QUEUE), 1);
  assert.deepEqual(runs, [doc.id]);
});
