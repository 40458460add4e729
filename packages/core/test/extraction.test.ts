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
  type DomainError,
  type ExtractFn,
  ExtractionAnswerError,
  type ExtractionServices,
  ensureDefaultPrompt,
  getDocument,
  getExtractionResult,
  listExtractionResults,
  ModelRegistry,
  runDocumentExtractions,
  runExtraction,
  runTextExtraction,
  tables,
  updateExtractionResult,
  uploadDocuments,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';
import { progressShown } from './progress-shown.ts';

let database: Database;
let fake: FakeLlmServer;
let services: ExtractionServices;
let orgId: string;

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR\nDue date: 2024-07-31';
const invoiceFormat = strictResponseFormat({
  invoice_number: { type: 'string' },
  customer: { type: 'string' },
  total: { type: 'number' },
  due_date: { anyOf: [{ type: 'string' }, { type: 'null' }] },
});
const ANSWER = { invoice_number: '2024-117', customer: 'Acme GmbH', total: 1250, due_date: '2024-07-31' };

const access = () => ({ orgId, role: 'admin' as const, userId: null });
const noScheduler = { scheduleTextExtraction: async () => {} };

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** A document whose text is ready, as after the text pipeline. */
async function documentWithText(name: string, text: string, tagIds: string[] = []) {
  const blobs = new DatabaseBlobStore(database.db);
  const [doc] = await uploadDocuments(
    { db: database.db, blobs, scheduler: noScheduler },
    access(),
    [{ name, content: once(Buffer.from(text)), tagIds }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 5 },
  );
  if (!doc) throw new Error('no document stored');
  const extract: ExtractFn = async () => ({
    pageCount: 1,
    pages: [{ page: 1, text, width: 1, height: 1, engine: 'plain', items: [] }],
  });
  assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: true }), true);
  return doc;
}

async function invoicePrompt(model: string, tagIds: string[] = []) {
  const schema = await createSchema(database.db, access(), { name: `invoice ${model}`, responseFormat: invoiceFormat });
  return createPrompt(database.db, access(), {
    name: `Invoice fields ${model} ${tagIds.join(',')}`,
    content: 'Extract the invoice fields.',
    schemaId: schema.schemaId,
    model,
    tagIds,
  });
}

before(async () => {
  database = await openTestDatabase();
  fake = await startFakeLlm();
  orgId = (await createOrganization(database.db, { name: 'Extraction' })).id;
  const env = {
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.baseUrl,
  };
  services = { db: database.db, llm: new ModelRegistry(database.db, { env, maxRetries: 0, timeoutMs: 10_000 }) };
});
beforeEach(() => fake.reset());
after(async () => {
  await fake.close();
  await database.close();
});

describe('runExtraction', () => {
  test('an OpenAI model (Responses API) gets the schema as structured output; its answer is stored', async () => {
    const doc = await documentWithText('invoice.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    fake.enqueue({ text: JSON.stringify(ANSWER), usage: { inputTokens: 300, outputTokens: 40 } });
    const run = await runExtraction(services, orgId, doc.id, prompt.promptRevid);
    assert.equal(run.reused, false);
    assert.deepEqual(run.result.llmResult, ANSWER);
    assert.deepEqual(run.result.updatedLlmResult, ANSWER);
    assert.equal(run.result.model, 'openai:gpt-4.1-mini');

    const [request] = fake.requests;
    assert.equal(request?.protocol, 'openai-responses');
    assert.equal(request?.body.model, 'gpt-4.1-mini');
    assert.deepEqual(request?.body.text.format.schema, invoiceFormat.json_schema.schema);
    assert.match(JSON.stringify(request?.body.input), /Total due: 1,250.00 EUR/);
    assert.match(JSON.stringify(request?.body.input), /Extract the invoice fields/);

    const again = await runExtraction(services, orgId, doc.id, prompt.promptRevid);
    assert.equal(again.reused, true);
    assert.equal(fake.requests.length, 1, 'a stored result is returned without calling the model');

    const ledger = (await database.db.select().from(tables.usageLedger)).filter((r) => r.documentId === doc.id);
    assert.equal(ledger.length, 1);
    assert.equal(ledger[0]?.operation, 'extraction');
    assert.equal(ledger[0]?.inputTokens, 300);
  });

  test('an Anthropic model (Messages API) gets the schema; force runs again and replaces edits', async () => {
    const doc = await documentWithText('invoice-a.txt', INVOICE);
    const prompt = await invoicePrompt('anthropic:claude-sonnet-4-5');
    fake.enqueue({ reasoning: { text: 'Reading the header.' }, text: JSON.stringify(ANSWER) });
    await runExtraction(services, orgId, doc.id, prompt.promptRevid);
    const [request] = fake.requests;
    assert.equal(request?.protocol, 'anthropic-messages');
    assert.deepEqual(request?.body.output_config.format.schema, invoiceFormat.json_schema.schema);

    const edited = await updateExtractionResult(database.db, orgId, doc.id, prompt.promptRevid, {
      updatedLlmResult: { ...ANSWER, total: 1300 },
      isVerified: true,
    });
    assert.equal(edited.isEdited, true);
    assert.equal(edited.isVerified, true);

    fake.enqueue({ text: JSON.stringify({ ...ANSWER, customer: 'Acme' }) });
    const forced = await runExtraction(services, orgId, doc.id, prompt.promptRevid, { force: true });
    assert.equal(forced.reused, false);
    assert.equal(forced.result.llmResult.customer, 'Acme');
    assert.equal(forced.result.isEdited, false);
    assert.equal(forced.result.isVerified, false);
  });

  test('an answer failing the schema is sent back once with the errors; the corrected one is stored', async () => {
    const doc = await documentWithText('invoice-b.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    fake.enqueue({ text: JSON.stringify({ ...ANSWER, total: '1,250.00' }) }, { text: JSON.stringify(ANSWER) });
    const run = await runExtraction(services, orgId, doc.id, prompt.promptRevid);
    assert.deepEqual(run.result.llmResult, ANSWER);
    assert.equal(fake.requests.length, 2);
    assert.match(JSON.stringify(fake.requests[1]?.body.input), /cannot be stored: total: must be number/);
  });

  test('an answer that is not JSON, twice, fails with the reason and stores nothing', async () => {
    const doc = await documentWithText('invoice-c.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    fake.enqueue({ text: 'Sure! The invoice number is 2024-117.' }, { text: '{"invoice_number": "2024-117",' });
    await assert.rejects(runExtraction(services, orgId, doc.id, prompt.promptRevid), (e: Error) => {
      assert.ok(e instanceof ExtractionAnswerError);
      assert.match(e.message, /failed twice.*not valid JSON/);
      return true;
    });
    await assert.rejects(getExtractionResult(database.db, orgId, doc.id, prompt.promptRevid), /was not found/);
  });

  test('a provider error is a clear failure and stores nothing', async () => {
    const doc = await documentWithText('invoice-d.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    fake.enqueue({ kind: 'error', status: 500, message: 'overloaded' });
    await assert.rejects(
      runExtraction(services, orgId, doc.id, prompt.promptRevid),
      (e: DomainError) => e.kind === 'upstream_failed' && /500.*overloaded/.test(e.message),
    );
    assert.deepEqual(await listExtractionResults(database.db, orgId, doc.id), []);
  });

  test('a run stopped while the model answers stores nothing and says it was stopped', async () => {
    const doc = await documentWithText('invoice-stopped.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    const held = heldReply({ text: JSON.stringify(ANSWER) });
    fake.setHandler(() => held.answer());
    const stop = new AbortController();
    const running = runExtraction(services, orgId, doc.id, prompt.promptRevid, { signal: stop.signal });
    await held.arrived;
    stop.abort();
    await assert.rejects(running, (e: Error) => e.name === 'AbortError');
    held.release();
    assert.deepEqual(await listExtractionResults(database.db, orgId, doc.id), []);
  });

  test('edits must satisfy the schema', async () => {
    const doc = await documentWithText('invoice-e.txt', INVOICE);
    const prompt = await invoicePrompt('openai:gpt-4.1-mini');
    fake.enqueue({ text: JSON.stringify(ANSWER) });
    await runExtraction(services, orgId, doc.id, prompt.promptRevid);
    await assert.rejects(
      updateExtractionResult(database.db, orgId, doc.id, prompt.promptRevid, { updatedLlmResult: { ...ANSWER, extra: 1 } }),
      /not valid/,
    );
    const same = await updateExtractionResult(database.db, orgId, doc.id, prompt.promptRevid, { updatedLlmResult: ANSWER });
    assert.equal(same.isEdited, false);
  });
});

describe('runDocumentExtractions (the job after the text pipeline)', () => {
  test('the default prompt and the prompts sharing a tag run; the document ends llm_completed', async () => {
    const tag = await createTag(database.db, orgId, { name: 'invoices' });
    const other = await createTag(database.db, orgId, { name: 'contracts' });
    const tagged = await invoicePrompt('openai:gpt-4.1-mini', [tag.id]);
    const untouched = await invoicePrompt('openai:gpt-4o', [other.id]);
    const doc = await documentWithText('tagged.txt', INVOICE, [tag.id]);
    fake.setHandler((request) =>
      request.body.text?.format?.schema
        ? { text: JSON.stringify(ANSWER) }
        : { text: JSON.stringify({ document_type: 'invoice', summary: 'An invoice to Acme.', key_facts: [] }) },
    );
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: false }), 'completed');
    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'llm_completed');
    const results = await listExtractionResults(database.db, orgId, doc.id);
    const defaultPrompt = await ensureDefaultPrompt(database.db, orgId);
    assert.deepEqual(
      results.map((r) => r.promptRevid),
      [defaultPrompt.promptRevid, tagged.promptRevid],
    );
    assert.ok(!results.some((r) => r.promptRevid === untouched.promptRevid));
    assert.equal(results[0]?.llmResult.document_type, 'invoice');
  });

  test('a prompt whose answers fail ends llm_failed with its reason; a retry keeps what succeeded', async () => {
    const tag = await createTag(database.db, orgId, { name: 'receipts' });
    const tagged = await invoicePrompt('openai:gpt-4.1-mini', [tag.id]);
    const doc = await documentWithText('bad.txt', INVOICE, [tag.id]);
    fake.setHandler((request) => (request.body.text?.format?.schema ? { text: 'no JSON here' } : { text: '{"summary": "ok"}' }));
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: false }), 'failed');
    const failed = await getDocument(database.db, orgId, doc.id);
    assert.equal(failed.state, 'llm_failed');
    assert.match(failed.stateError ?? '', new RegExp(`${tagged.name}: The model's answer .* failed twice`));
    assert.equal((await listExtractionResults(database.db, orgId, doc.id)).length, 1);

    fake.reset();
    fake.setHandler(() => ({ text: JSON.stringify(ANSWER) }));
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: false }), 'completed');
    assert.equal(fake.requests.length, 1, 'only the prompt without a result ran again');
  });

  test('the document shows its prompts done of all while they run, and no progress once they are', async () => {
    const tag = await createTag(database.db, orgId, { name: 'progress' });
    await invoicePrompt('openai:gpt-4.1-mini', [tag.id]);
    await invoicePrompt('openai:gpt-4o', [tag.id]);
    const doc = await documentWithText('progress.txt', INVOICE, [tag.id]);
    const shown: unknown[] = [];
    fake.setHandler(async (request) => {
      // One request a prompt: as each one asks, the prompts before it are done.
      shown.push(await progressShown(database.db, orgId, doc.id, shown.length));
      return request.body.text?.format?.schema ? { text: JSON.stringify(ANSWER) } : { text: '{"summary": "ok"}' };
    });
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: false }), 'completed');
    assert.deepEqual(
      shown,
      [0, 1, 2].map((done) => ({ stage: 'extraction', done, total: 3 })),
    );
    const done = await getDocument(database.db, orgId, doc.id);
    assert.deepEqual([done.state, done.progress], ['llm_completed', null]);
  });

  test('a provider outage is retried by the queue, and recorded on the last attempt', async () => {
    const doc = await documentWithText('outage.txt', INVOICE);
    fake.setHandler(() => ({ kind: 'error', status: 503, message: 'unavailable' }));
    await assert.rejects(runDocumentExtractions(services, doc.id, { isLast: false }), /503/);
    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'llm_processing');
    assert.equal((await getDocument(database.db, orgId, doc.id)).progress, null, 'no progress while the retry waits');
    assert.equal(await runDocumentExtractions(services, doc.id, { isLast: true }), 'failed');
    assert.match((await getDocument(database.db, orgId, doc.id)).stateError ?? '', /Document Summary: .*503/);
  });

  test('with no provider configured the document stays at ocr_completed', async () => {
    const doc = await documentWithText('nothing.txt', INVOICE);
    const bare = { db: database.db, llm: new ModelRegistry(database.db, { env: {}, maxRetries: 0, timeoutMs: 1000 }) };
    assert.equal(await runDocumentExtractions(bare, doc.id, { isLast: true }), 'skipped');
    assert.equal((await getDocument(database.db, orgId, doc.id)).state, 'ocr_completed');
  });
});
