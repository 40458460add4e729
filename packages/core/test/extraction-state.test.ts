import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, heldReply, startFakeLlm } from '@docagent/fake-llm';
import {
  createOrganization,
  createPrompt,
  createSchema,
  createTag,
  type Database,
  DatabaseBlobStore,
  deletePrompt,
  type ExtractFn,
  type ExtractionServices,
  extractionStateOf,
  getDocument,
  ModelRegistry,
  runDocumentExtractions,
  runExtraction,
  runTextExtraction,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

/** Case 1 and case 3 of the state audit (issue 16): the document's state follows each prompt's latest outcome, whoever ran it. */

let database: Database;
let fake: FakeLlmServer;
let services: ExtractionServices;
let orgId: string;

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR';
const invoiceFormat = strictResponseFormat({ invoice_number: { type: 'string' }, total: { type: 'number' } });
const ANSWER = { invoice_number: '2024-117', total: 1250 };
const SUMMARY = { document_type: 'invoice', summary: 'An invoice.', key_facts: [] };

const access = () => ({ orgId, role: 'admin' as const, userId: null });
const isStructured = (body: { text?: { format?: { schema?: unknown } } }) => body.text?.format?.schema !== undefined;
/** Every request answered well: the summary for the default prompt, the invoice for the others. */
const answerAll = () => fake.setHandler((r) => ({ text: JSON.stringify(isStructured(r.body) ? ANSWER : SUMMARY) }));
/** The invoice prompt's answers fail (not JSON); the default prompt's succeed. */
const failInvoices = () => fake.setHandler((r) => ({ text: isStructured(r.body) ? 'no JSON here' : JSON.stringify(SUMMARY) }));

async function* once(bytes: Uint8Array) {
  yield bytes;
}

async function documentWithText(name: string, tagIds: string[] = []) {
  const blobs = new DatabaseBlobStore(database.db);
  const [doc] = await uploadDocuments(
    { db: database.db, blobs, scheduler: { scheduleTextExtraction: async () => {} } },
    access(),
    [{ name, content: once(Buffer.from(INVOICE)), tagIds }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 5 },
  );
  if (!doc) throw new Error('no document stored');
  const extract: ExtractFn = async () => ({
    pageCount: 1,
    pages: [{ page: 1, text: INVOICE, width: 1, height: 1, engine: 'plain', items: [] }],
  });
  assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: true }), true);
  return doc;
}

let prompts = 0;
async function invoicePrompt(tagIds: string[] = []) {
  prompts += 1;
  const schema = await createSchema(database.db, access(), { name: `invoice ${prompts}`, responseFormat: invoiceFormat });
  return createPrompt(database.db, access(), {
    name: `Invoice ${prompts}`,
    content: 'Extract the invoice fields.',
    schemaId: schema.schemaId,
    model: 'openai:gpt-4.1-mini',
    tagIds,
  });
}

const stateOf = async (documentId: string) => {
  const doc = await getDocument(database.db, orgId, documentId);
  return { state: doc.state, error: doc.stateError };
};

before(async () => {
  database = await openTestDatabase();
  fake = await startFakeLlm();
  orgId = (await createOrganization(database.db, { name: 'State audit' })).id;
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl };
  services = { db: database.db, llm: new ModelRegistry(database.db, { env, maxRetries: 0, timeoutMs: 10_000 }) };
});
beforeEach(() => fake.reset());
after(async () => {
  await fake.close();
  await database.close();
});

describe('the rule', () => {
  const ok = { promptName: 'A', succeeded: true, error: null };
  const failed = { promptName: 'B', succeeded: false, error: 'it broke' };

  test('llm_failed while a latest outcome failed, with its reason; llm_completed when all succeeded; ocr_completed before any', () => {
    for (const current of ['ocr_completed', 'llm_completed', 'llm_failed'] as const) {
      assert.deepEqual(extractionStateOf(current, [ok, failed]), { state: 'llm_failed', stateError: 'B: it broke' });
      assert.deepEqual(extractionStateOf(current, [ok]), { state: 'llm_completed', stateError: null });
      assert.deepEqual(extractionStateOf(current, []), { state: 'ocr_completed', stateError: null });
    }
  });

  test('no say before the text, nor while the job runs, which decides when it is done', () => {
    for (const current of ['uploaded', 'ocr_processing', 'ocr_failed'] as const) {
      assert.equal(extractionStateOf(current, [failed], { jobDone: true }), undefined);
    }
    assert.equal(extractionStateOf('llm_processing', [failed]), undefined);
    assert.equal(extractionStateOf('llm_processing', [ok], { jobDone: true })?.state, 'llm_completed');
  });
});

describe('case 1: a failed prompt that re-ran successfully', () => {
  test('clears llm_failed and its reason (a direct run, as POST llm/run does)', async () => {
    const tag = await createTag(database.db, orgId, { name: 'rerun' });
    const prompt = await invoicePrompt([tag.id]);
    const doc = await documentWithText('rerun.txt', [tag.id]);
    failInvoices();
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: true }), 'failed');
    const failed = await stateOf(doc.id);
    assert.equal(failed.state, 'llm_failed');
    assert.match(failed.error ?? '', new RegExp(`^${prompt.name}: The model's answer .* failed twice`));

    answerAll();
    await runExtraction(services, orgId, doc.id, prompt.promptRevid, { force: true });
    assert.deepEqual(await stateOf(doc.id), { state: 'llm_completed', error: null });
  });

  test("another prompt's success does not hide a failure; a later failure of a good prompt shows", async () => {
    const tag = await createTag(database.db, orgId, { name: 'two prompts' });
    const first = await invoicePrompt([tag.id]);
    const second = await invoicePrompt([tag.id]);
    const doc = await documentWithText('two.txt', [tag.id]);
    answerAll();
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: true }), 'completed');

    failInvoices();
    await assert.rejects(runExtraction(services, orgId, doc.id, first.promptRevid, { force: true }), /failed twice/);
    assert.equal((await stateOf(doc.id)).state, 'llm_failed', 'the latest run of a prompt failed: the document says so');
    answerAll();
    await runExtraction(services, orgId, doc.id, second.promptRevid, { force: true });
    const still = await stateOf(doc.id);
    assert.equal(still.state, 'llm_failed');
    assert.match(still.error ?? '', new RegExp(`^${first.name}: `));
    assert.doesNotMatch(still.error ?? '', new RegExp(second.name));
  });

  test('the job runs a prompt whose latest run failed again, even when an older result is stored', async () => {
    const tag = await createTag(database.db, orgId, { name: 'job again' });
    const prompt = await invoicePrompt([tag.id]);
    const doc = await documentWithText('again.txt', [tag.id]);
    answerAll();
    await runDocumentExtractions(services, doc.id, { isLast: true });
    failInvoices();
    await assert.rejects(runExtraction(services, orgId, doc.id, prompt.promptRevid, { force: true }));
    assert.equal((await stateOf(doc.id)).state, 'llm_failed');

    fake.reset();
    answerAll();
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: true }), 'completed');
    assert.equal(fake.requests.length, 1, 'only the failed prompt ran; the summary was kept');
    assert.deepEqual(await stateOf(doc.id), { state: 'llm_completed', error: null });
  });

  test('deleting the prompt that failed settles the document by what is left', async () => {
    const tag = await createTag(database.db, orgId, { name: 'deleted' });
    const prompt = await invoicePrompt([tag.id]);
    const doc = await documentWithText('deleted.txt', [tag.id]);
    failInvoices();
    await runDocumentExtractions(services, doc.id, { isLast: true });
    assert.equal((await stateOf(doc.id)).state, 'llm_failed');
    await deletePrompt(database.db, orgId, prompt.promptId);
    assert.deepEqual(await stateOf(doc.id), { state: 'llm_completed', error: null });
  });
});

describe('case 3: a run outside the job (the agent, the API) updates the state', () => {
  test('a document at ocr_completed ends llm_completed after a successful run, llm_failed after a failed one', async () => {
    const prompt = await invoicePrompt();
    const good = await documentWithText('agent-good.txt');
    assert.equal((await stateOf(good.id)).state, 'ocr_completed');
    answerAll();
    await runExtraction(services, orgId, good.id, prompt.promptRevid, { force: true });
    assert.deepEqual(await stateOf(good.id), { state: 'llm_completed', error: null });

    const bad = await documentWithText('agent-bad.txt');
    failInvoices();
    await assert.rejects(runExtraction(services, orgId, bad.id, prompt.promptRevid, { force: true }));
    assert.equal((await stateOf(bad.id)).state, 'llm_failed');
  });

  test('a stopped run is no outcome: the state stays', async () => {
    const prompt = await invoicePrompt();
    const doc = await documentWithText('stopped.txt');
    const held = heldReply({ text: JSON.stringify(ANSWER) });
    fake.setHandler(() => held.answer());
    const stop = new AbortController();
    const running = runExtraction(services, orgId, doc.id, prompt.promptRevid, { force: true, signal: stop.signal });
    await held.arrived;
    stop.abort();
    await assert.rejects(running);
    held.release();
    assert.equal((await stateOf(doc.id)).state, 'ocr_completed');
  });

  test('while the job runs, a run outside it leaves llm_processing; the job counts it when it is done', async () => {
    const other = await invoicePrompt();
    const doc = await documentWithText('during.txt');
    const held = heldReply({ text: JSON.stringify(SUMMARY) });
    let first = true;
    fake.setHandler((r) => {
      if (!isStructured(r.body) && first) {
        first = false;
        return held.answer();
      }
      return { text: isStructured(r.body) ? 'no JSON here' : JSON.stringify(SUMMARY) };
    });
    const job = runDocumentExtractions(services, doc.id, { isLast: true });
    await held.arrived;
    assert.equal((await stateOf(doc.id)).state, 'llm_processing');
    await assert.rejects(runExtraction(services, orgId, doc.id, other.promptRevid, { force: true }));
    assert.equal((await stateOf(doc.id)).state, 'llm_processing', 'the job decides when it is done');
    held.release();
    assert.equal(await job, 'failed');
    assert.match((await stateOf(doc.id)).error ?? '', new RegExp(`^${other.name}: `));
  });
});
