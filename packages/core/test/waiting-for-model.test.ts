import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { eq, sql } from 'drizzle-orm';
import {
  changeLlmProvider,
  createOrganization,
  type Database,
  getDocument,
  JobQueue,
  LLM_EXTRACTION_QUEUE,
  ModelRegistry,
  resumeWaitingExtractions,
  runDocumentExtractions,
  runTextExtraction,
  selectRows,
  type TextExtractionScheduler,
  tables,
  waitingJobId,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { noModels, plainTextServices, until, uploadTexts } from './job-test-kit.ts';

/**
 * Case 2 of the state audit (issue 16): documents whose prompts found no model are processed once
 * one is available, by a resumable job that neither loses nor repeats work.
 */

let database: Database;
let fake: FakeLlmServer;
let bare: ModelRegistry;
let withKey: ModelRegistry;

const SUMMARY = { document_type: 'note', summary: 'A note.', key_facts: [] };
const admin = (orgId: string) => ({ orgId, role: 'admin' as const, userId: null });

const upload = async (
  orgId: string,
  name: string,
  scheduler: TextExtractionScheduler = { scheduleTextExtraction: async () => {} },
) => {
  const [doc] = await uploadTexts(database.db, scheduler, orgId, [{ name, text: `Notes of ${name}` }]);
  if (!doc) throw new Error('no document stored');
  return doc;
};

/** A document whose text is ready and whose prompts' job found no provider, as before a provider existed. */
async function waitingDocument(orgId: string, name: string) {
  const doc = await upload(orgId, name);
  await runTextExtraction(plainTextServices(database.db), doc.id, { isLast: true });
  assert.equal(await runDocumentExtractions({ db: database.db, llm: bare }, doc.id, { isLast: true }), 'skipped');
  return doc;
}

const waitingSince = async (documentId: string) =>
  (
    await database.db
      .select({ since: tables.documents.llmWaitingSince })
      .from(tables.documents)
      .where(eq(tables.documents.id, documentId))
  )[0]?.since ?? null;

const promptJobsOf = async (documentId: string) =>
  (
    await selectRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pgboss.job where name = ${LLM_EXTRACTION_QUEUE} and data->>'documentId' = ${documentId}`,
    )
  )[0]?.n ?? 0;

before(async () => {
  database = await openTestDatabase();
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: JSON.stringify(SUMMARY) }));
  bare = noModels(database.db, 10_000);
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl };
  withKey = new ModelRegistry(database.db, { env, maxRetries: 0, timeoutMs: 10_000 });
});
after(async () => {
  await fake.close();
  await database.close();
});

describe('the resumable hand-over', () => {
  test('a document whose job found no provider stays ocr_completed and waits', async () => {
    const orgId = (await createOrganization(database.db, { name: 'Waiting' })).id;
    const doc = await waitingDocument(orgId, 'a.txt');
    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'ocr_completed');
    assert.ok(await waitingSince(doc.id));

    const sent: string[] = [];
    const send = async (documentId: string) => void sent.push(documentId);
    assert.equal(await resumeWaitingExtractions({ db: database.db, llm: bare, send }, orgId), 0);
    assert.deepEqual(sent, [], 'still no provider: nothing is handed on');
    assert.ok(await waitingSince(doc.id));
  });

  test('once there is a provider each waiting document is handed on once; a crashed run resumes with the same job ids', async () => {
    const orgId = (await createOrganization(database.db, { name: 'Resumed' })).id;
    const first = await waitingDocument(orgId, 'first.txt');
    const second = await waitingDocument(orgId, 'second.txt');
    const firstSince = await waitingSince(first.id);
    assert.ok(firstSince);

    // The run dies after queueing the first document's job, before clearing its wait.
    const sent: Array<[string, string]> = [];
    const crashing = async (documentId: string, jobId: string) => {
      sent.push([documentId, jobId]);
      throw new Error('worker killed');
    };
    await assert.rejects(resumeWaitingExtractions({ db: database.db, llm: withKey, send: crashing }, orgId), /worker killed/);
    assert.deepEqual(sent, [[first.id, waitingJobId(first.id, firstSince)]]);
    assert.ok(await waitingSince(first.id), 'not cleared: the retry hands it on again');

    const retried: Array<[string, string]> = [];
    const send = async (documentId: string, jobId: string) => void retried.push([documentId, jobId]);
    assert.equal(await resumeWaitingExtractions({ db: database.db, llm: withKey, send }, orgId), 2);
    assert.deepEqual(retried.map(([id]) => id).sort(), [first.id, second.id].sort());
    assert.equal(retried.find(([id]) => id === first.id)?.[1], sent[0]?.[1], 'the same job id, which the queue takes once');
    assert.equal(await waitingSince(first.id), null);
    assert.equal(await waitingSince(second.id), null);
    assert.equal(await resumeWaitingExtractions({ db: database.db, llm: withKey, send }, orgId), 0);
  });
});

describe('on the job queue', () => {
  test('configuring a provider processes waiting documents; a repeated hand-over queues no second job', async () => {
    const orgId = (await createOrganization(database.db, { name: 'Provider later' })).id;
    const queue = await JobQueue.start(
      database,
      {
        text: plainTextServices(database.db),
        extraction: { db: database.db, llm: bare },
      },
      { workers: 2, pollingIntervalSeconds: 0.5 },
    );
    try {
      const doc = await upload(orgId, 'before-provider.txt', queue);
      await until('the prompts job to find no provider', async () => (await waitingSince(doc.id)) !== null);
      const since = await waitingSince(doc.id);
      assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'ocr_completed');

      // An organization's own endpoint, as an admin configures it in Settings → Models.
      await changeLlmProvider(bare, queue, admin(orgId), 'ollama', { baseUrl: fake.baseUrl, models: ['qwen3:8b'] });
      await until('the prompts to run', async () => (await getDocument(database.db, orgId, doc.id)).state === 'llm_completed');
      assert.equal(await waitingSince(doc.id), null);
      assert.equal(await promptJobsOf(doc.id), 2, 'the job after the text, and the one the provider brought');

      // As if the hand-over had died between queueing the job and clearing the wait, and ran again.
      const requests = fake.requests.length;
      await database.db.update(tables.documents).set({ llmWaitingSince: since }).where(eq(tables.documents.id, doc.id));
      await queue.scheduleWaitingExtractions(orgId);
      await until('the wait to be cleared', async () => (await waitingSince(doc.id)) === null);
      assert.equal(await promptJobsOf(doc.id), 2, 'the same job id is not queued twice');
      assert.equal(fake.requests.length, requests);
    } finally {
      await queue.stop();
    }
  });

  test('a queue started with a provider in its environment processes what waited before', async () => {
    const orgId = (await createOrganization(database.db, { name: 'Restarted' })).id;
    const doc = await waitingDocument(orgId, 'before-restart.txt');
    const queue = await JobQueue.start(
      database,
      {
        text: plainTextServices(database.db),
        extraction: { db: database.db, llm: withKey },
      },
      { workers: 2, pollingIntervalSeconds: 0.5 },
    );
    try {
      await until('the prompts to run', async () => (await getDocument(database.db, orgId, doc.id)).state === 'llm_completed');
      assert.equal(await waitingSince(doc.id), null);
    } finally {
      await queue.stop();
    }
  });
});
