import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  AUTO_CREATE_QUEUE,
  createOrganization,
  type Database,
  DatabaseBlobStore,
  JobQueue,
  ModelRegistry,
  TEXT_EXTRACTION_QUEUE,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { jobCount, plainTextExtract } from './job-test-kit.ts';

let database: Database;
let queue: JobQueue;
let orgId: string;

/** Stands in for the headless agent: records each run and holds it until released. */
const runs: string[] = [];
let releaseRun = () => {};
const held = new Promise<void>((resolve) => {
  releaseRun = resolve;
});

async function* once(text: string) {
  yield Buffer.from(text);
}

async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Queue' })).id;
  const blobs = new DatabaseBlobStore(database.db);
  queue = await JobQueue.start(
    database,
    {
      text: { db: database.db, blobs, extract: plainTextExtract },
      extraction: { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) },
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
  const [doc] = await uploadDocuments(
    { db: database.db, blobs: new DatabaseBlobStore(database.db), scheduler: queue },
    { orgId, role: 'admin', userId: null },
    [{ name: 'invoice.txt', content: once('INVOICE 2024-117'), autoCreate: true }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 1 },
  );
  assert.ok(doc);
  await until('the auto-create run', () => runs.length === 1);

  // A retried or repeated text job finds the document still waiting for auto-create (the
  // stand-in never moves it on) and asks for a run again while the first one runs.
  await queue.scheduleTextExtraction(doc.id);
  await until('the second text job', async () => (await jobCount(database.db, TEXT_EXTRACTION_QUEUE, 'completed')) === 2);
  assert.equal(await jobCount(database.db, AUTO_CREATE_QUEUE), 1);
  assert.deepEqual(runs, [doc.id]);
});
