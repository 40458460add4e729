import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  createOrganization,
  type Database,
  DatabaseBlobStore,
  type ExtractFn,
  getDocument,
  ModelRegistry,
  runTextExtraction,
  uploadDocuments,
} from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { openTestDatabase } from '@docagent/core/testing';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { documentSection } from '../src/packs/document/context-section.ts';
import { documentTools } from '../src/packs/document/index.ts';
import { executeTool, type ToolContext, type ToolOutcome, ToolRegistry, type WorkingState } from '../src/tools/tool.ts';

let database: Database;
let fake: FakeLlmServer;
let orgId: string;
let otherOrgId: string;
let docId: string;

const registry = new ToolRegistry(documentTools);
const noScheduler = { scheduleTextExtraction: async () => {} };

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR';
const PAGE_TWO = 'Line items\nWidget 2 x 500.00\nService 250.00';

const invoiceFormat = strictResponseFormat({
  invoice_number: { type: 'string' },
  total: { type: 'number' },
  line_items: {
    type: 'array',
    items: {
      type: 'object',
      properties: { description: { type: 'string' }, amount: { type: 'number' } },
      required: ['description', 'amount'],
      additionalProperties: false,
    },
  },
});
const ANSWER = {
  invoice_number: '2024-117',
  total: 1250,
  line_items: [
    { description: 'Widget', amount: 1000 },
    { description: 'Service', amount: 250 },
  ],
};

function contextFor(org: string, documentId: string, workingState: WorkingState = {}): ToolContext {
  const { db } = database;
  return {
    access: { orgId: org, role: 'admin', userId: null },
    subject: { kind: 'document', id: documentId },
    services: {
      db,
      documents: { db, blobs: new DatabaseBlobStore(db), scheduler: noScheduler },
      extraction: {
        db,
        llm: new ModelRegistry(db, {
          env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
          maxRetries: 0,
          timeoutMs: 10_000,
        }),
      },
    },
    workingState,
    abortSignal: new AbortController().signal,
    addUsage: () => {},
  };
}

async function call(context: ToolContext, name: string, input: unknown): Promise<ToolOutcome> {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return executeTool(tool, context, input);
}

/** The result of a call that must succeed. */
async function ok(context: ToolContext, name: string, input: unknown = {}): Promise<Record<string, unknown>> {
  const outcome = await call(context, name, input);
  if (!outcome.success) assert.fail(`${name} failed: ${outcome.error}`);
  return outcome.result as Record<string, unknown>;
}

/** The error of a call that must fail. */
async function fails(context: ToolContext, name: string, input: unknown, pattern: RegExp): Promise<string> {
  const outcome = await call(context, name, input);
  if (outcome.success) assert.fail(`${name} succeeded: ${JSON.stringify(outcome.result)}`);
  assert.match(outcome.error, pattern);
  return outcome.error;
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

/** A document whose text is ready (pages given), as after the text pipeline. */
async function documentWithText(org: string, name: string, pages: string[], tagIds: string[] = []) {
  const blobs = new DatabaseBlobStore(database.db);
  const [doc] = await uploadDocuments(
    { db: database.db, blobs, scheduler: noScheduler },
    { orgId: org, role: 'admin', userId: null },
    [{ name, content: once(Buffer.from(pages.join('\n'))), tagIds }],
    { maxFileBytes: 1e6, maxRequestBytes: 2e6, maxFiles: 5 },
  );
  if (!doc) throw new Error('no document stored');
  const extract: ExtractFn = async () => ({
    pageCount: pages.length,
    pages: pages.map((text, i) => ({ page: i + 1, text, width: 1, height: 1, engine: 'plain', items: [] })),
  });
  assert.equal(await runTextExtraction({ db: database.db, blobs, extract }, doc.id, { isLast: true }), true);
  return doc;
}

before(async () => {
  database = await openTestDatabase();
  fake = await startFakeLlm();
  orgId = (await createOrganization(database.db, { name: 'Tools' })).id;
  otherOrgId = (await createOrganization(database.db, { name: 'Other' })).id;
  docId = (await documentWithText(orgId, 'invoice.txt', [INVOICE, PAGE_TWO])).id;
});
beforeEach(() => fake.reset());
after(async () => {
  await fake.close();
  await database.close();
});

/** A schema and a prompt using it, through the tools. */
async function invoiceSetup(context: ToolContext, suffix: string) {
  const schema = await ok(context, 'create_schema', { name: `Invoice ${suffix}`, response_format: invoiceFormat });
  const prompt = await ok(context, 'create_prompt', {
    name: `Invoice fields ${suffix}`,
    content: 'Extract the invoice fields.',
    schema_id: schema.schema_id,
    model: 'openai:gpt-4.1-mini',
  });
  return { schema, prompt };
}

describe('the registry', () => {
  test('has the 29 tools, 16 read-only and 13 read-write, in the design order', () => {
    assert.equal(documentTools.length, 29);
    const { read_only, read_write } = registry.byAccess();
    assert.deepEqual(read_only, [
      'get_ocr_text',
      'get_extraction_result',
      'list_documents',
      'get_schema',
      'list_schemas',
      'validate_schema',
      'validate_against_schema',
      'infer_schema',
      'evaluate_prompt',
      'get_prompt',
      'list_prompts',
      'get_tag',
      'list_tags',
      'help_schemas',
      'help_prompts',
      'list_llm_models',
    ]);
    assert.deepEqual(read_write, [
      'run_extraction',
      'update_extraction_field',
      'update_document',
      'delete_document',
      'create_schema',
      'update_schema',
      'delete_schema',
      'create_prompt',
      'update_prompt',
      'delete_prompt',
      'create_tag',
      'update_tag',
      'delete_tag',
    ]);
  });

  test('every tool has a description and the critical ones carry an example', () => {
    for (const tool of documentTools) assert.ok(tool.description.length > 20, tool.name);
    for (const name of ['create_schema', 'create_prompt', 'run_extraction']) {
      assert.match(registry.get(name)?.description ?? '', /Example: \{/, name);
    }
  });
});

describe('get_ocr_text', () => {
  test('reads all pages with page marks, a page range, and cuts long text saying how to read on', async () => {
    const context = contextFor(orgId, docId);
    const all = await ok(context, 'get_ocr_text');
    assert.equal(all.page_count, 2);
    assert.equal(all.pages, '1-2');
    assert.match(String(all.text), /\[page 1\]\nINVOICE 2024-117[\s\S]*\[page 2\]\nLine items/);
    assert.equal(all.truncated, undefined);

    const second = await ok(context, 'get_ocr_text', { page_start: 2 });
    assert.equal(second.pages, '2');
    assert.doesNotMatch(String(second.text), /INVOICE/);

    const cut = await ok(context, 'get_ocr_text', { max_chars: 100, page_end: 2 });
    assert.equal(String(cut.text).length, 100);
    assert.equal(cut.truncated, true);
    assert.equal(cut.next_start_char, 100);
    assert.match(String(cut.note), /start_char=100/);
    const rest = await ok(context, 'get_ocr_text', { start_char: 100 });
    assert.equal(String(cut.text) + String(rest.text), all.text);

    await fails(context, 'get_ocr_text', { page_start: 3 }, /page_start 3 is out of range.*2 page/);
    await fails(context, 'get_ocr_text', { max_chars: 10 }, /max_chars/);
  });
});

describe("the document's section of the system message", () => {
  const sectionOf = (documentId: string, small: boolean) => {
    const context = contextFor(orgId, documentId);
    return documentSection({ ...context, modelId: 'openai:gpt-4.1', small, workingState: {} });
  };

  test('holds the start of a long text, says how much more there is and how to read it', async () => {
    const pages = ['A'.repeat(3000), 'B'.repeat(3000), 'C'.repeat(3000)];
    const long = await documentWithText(orgId, 'long.txt', pages);
    const text = pages.join('\n\n');
    const large = await sectionOf(long.id, false);
    assert.ok(
      large.includes(
        `<document_text>\n${text.slice(0, 8000)}\n[… ${text.length - 8000} more characters: read them with get_ocr_text]\n</document_text>`,
      ),
    );
    assert.match(await sectionOf(long.id, true), new RegExp(`\\[… ${text.length - 4000} more characters`));
    const short = await sectionOf(docId, false);
    assert.ok(short.includes(`<document_text>\n${INVOICE}\n\n${PAGE_TWO}\n</document_text>`));
    assert.match(short, /Current document: "invoice\.txt"/);
  });
});

describe('schema tools', () => {
  test('validate_schema reports each problem with its path', async () => {
    const context = contextFor(orgId, docId);
    assert.deepEqual(await ok(context, 'validate_schema', { response_format: invoiceFormat }), { valid: true, errors: [] });
    const bad = await ok(context, 'validate_schema', {
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'bad',
          strict: false,
          schema: { type: 'object', properties: { total: { type: 'float' }, note: { type: 'string' } }, required: ['total'] },
        },
      },
    });
    assert.equal(bad.valid, false);
    const errors = bad.errors as { path: string; message: string }[];
    const paths = errors.map((e) => e.path);
    assert.ok(paths.includes('json_schema.strict'), paths.join());
    assert.ok(paths.includes('json_schema.schema.properties.total.type'), paths.join());
    assert.ok(
      errors.some((e) => e.path === 'json_schema.schema' && /additionalProperties/.test(e.message)),
      JSON.stringify(errors),
    );
    assert.ok(
      errors.some((e) => /missing: note/.test(e.message)),
      JSON.stringify(errors),
    );
    // A JSON string of the response_format is accepted too.
    assert.equal((await ok(context, 'validate_schema', { response_format: JSON.stringify(invoiceFormat) })).valid, true);
  });

  test('create, get, list, version by name, update, no change, validate data, delete', async () => {
    const workingState: WorkingState = {};
    const context = contextFor(orgId, docId, workingState);
    const created = await ok(context, 'create_schema', { name: 'Receipt', response_format: invoiceFormat });
    assert.equal(created.schema_version, 1);
    assert.equal(created.name, 'Receipt');
    assert.equal(workingState.schema_revid, created.schema_revid);
    assert.equal(created.response_format, undefined, 'the result stays compact');

    const again = await ok(context, 'create_schema', { name: 'Receipt', response_format: invoiceFormat });
    assert.equal(again.schema_version, 2);
    assert.equal(again.schema_id, created.schema_id);
    assert.notEqual(again.schema_revid, created.schema_revid);
    assert.match(String(again.message), /version 2/);

    const fetched = await ok(context, 'get_schema', { schema_revid: created.schema_revid });
    assert.deepEqual(fetched.response_format, invoiceFormat);
    assert.equal(fetched.schema_version, 1);

    const list = await ok(context, 'list_schemas', { name_search: 'recei' });
    assert.equal(list.total_count, 1);
    const [item] = list.schemas as Record<string, unknown>[];
    assert.equal(item?.schema_version, 2);
    assert.deepEqual(item?.fields, ['invoice_number', 'total', 'line_items']);

    const same = await ok(context, 'update_schema', { schema_id: created.schema_id, response_format: invoiceFormat });
    assert.equal(same.message, 'No changes');
    assert.equal(same.schema_version, 2);

    const renamed = await ok(context, 'update_schema', { schema_id: created.schema_id, name: 'Receipt fields' });
    assert.equal(renamed.schema_version, 3);
    assert.equal(workingState.schema_revid, renamed.schema_revid);

    const valid = await ok(context, 'validate_against_schema', { schema_revid: renamed.schema_revid, data: ANSWER });
    assert.deepEqual(valid, { valid: true, errors: [] });
    const invalid = await ok(context, 'validate_against_schema', {
      schema_revid: renamed.schema_revid,
      data: { ...ANSWER, line_items: [{ description: 'x', amount: 'ten' }] },
    });
    assert.equal(invalid.valid, false);
    assert.deepEqual(invalid.errors, [{ path: 'line_items.0.amount', message: 'must be number' }]);

    await ok(context, 'delete_schema', { schema_id: created.schema_id });
    assert.equal(workingState.schema_revid, undefined, 'the working state forgets a deleted schema');
    await fails(context, 'get_schema', { schema_revid: created.schema_revid }, /not found/);
  });

  test('an invalid schema is an error naming the path; deleting a schema used by a prompt names the prompt', async () => {
    const context = contextFor(orgId, docId);
    await fails(
      context,
      'create_schema',
      {
        name: 'Broken',
        response_format: { type: 'json_schema', json_schema: { name: 'b', strict: true, schema: { type: 'string' } } },
      },
      /json_schema\.schema\.type/,
    );
    const { schema } = await invoiceSetup(context, 'in use');
    await fails(context, 'delete_schema', { schema_id: schema.schema_id }, /used by prompt "Invoice fields in use"/);
  });
});

describe('prompt tools', () => {
  test('create, version by name, get with its schema, list, update, no change, delete', async () => {
    const workingState: WorkingState = {};
    const context = contextFor(orgId, docId, workingState);
    const tag = await ok(context, 'create_tag', { name: 'invoice-prompts' });
    const { schema, prompt } = await invoiceSetup(context, 'P');
    assert.equal(prompt.prompt_version, 1);
    assert.equal(prompt.schema_id, schema.schema_id);
    assert.equal(prompt.schema_version, 1);
    assert.equal(workingState.prompt_revid, prompt.prompt_revid);

    const v2 = await ok(context, 'create_prompt', {
      name: 'Invoice fields P',
      content: 'Extract the invoice fields, carefully.',
      schema_id: schema.schema_id,
      tag_ids: [tag.id],
    });
    assert.equal(v2.prompt_version, 2);
    assert.equal(v2.prompt_id, prompt.prompt_id);
    assert.deepEqual(v2.tag_ids, [tag.id]);

    const fetched = await ok(context, 'get_prompt', { prompt_revid: v2.prompt_revid });
    assert.equal(fetched.content, 'Extract the invoice fields, carefully.');
    assert.deepEqual(fetched.schema, { schema_revid: schema.schema_revid, name: 'Invoice P', schema_version: 1 });
    const defaultPrompt = await ok(context, 'get_prompt', { prompt_revid: 'default' });
    assert.equal(defaultPrompt.schema, null);

    const list = await ok(context, 'list_prompts', { tag_ids: [tag.id] });
    assert.equal(list.total_count, 1);
    const [item] = list.prompts as Record<string, unknown>[];
    assert.equal(item?.prompt_revid, v2.prompt_revid);
    assert.equal(item?.content, undefined);
    assert.match(String(item?.content_preview), /carefully/);
    const forDocument = await ok(context, 'list_prompts', { document_id: docId });
    assert.ok((forDocument.prompts as Record<string, unknown>[]).some((p) => p.name === 'Document Summary'));

    const same = await ok(context, 'update_prompt', {
      prompt_id: prompt.prompt_id,
      content: 'Extract the invoice fields, carefully.',
    });
    assert.equal(same.message, 'No changes');
    assert.equal(same.prompt_revid, v2.prompt_revid);

    const v3 = await ok(context, 'update_prompt', { prompt_id: prompt.prompt_id, schema_id: null, model: null });
    assert.equal(v3.prompt_version, 3);
    assert.equal(v3.schema_id, null);
    assert.equal(workingState.prompt_revid, v3.prompt_revid);

    await fails(context, 'delete_tag', { tag_id: tag.id }, /Tag "invoice-prompts" is used by prompt "Invoice fields P"/);
    await ok(context, 'delete_prompt', { prompt_id: prompt.prompt_id });
    assert.equal(workingState.prompt_revid, undefined, 'the working state forgets a deleted prompt');
    await fails(context, 'get_prompt', { prompt_revid: v3.prompt_revid }, /not found/);
    await ok(context, 'delete_tag', { tag_id: tag.id });
  });

  test('a prompt naming an unknown schema or tag fails clearly', async () => {
    const context = contextFor(orgId, docId);
    await fails(context, 'create_prompt', { name: 'X', content: 'x', schema_id: 'nope' }, /Schema nope was not found/);
    await fails(context, 'create_prompt', { name: 'X', content: 'x', tag_ids: ['nope'] }, /"nope" is not a tag/);
  });
});

describe('tag tools', () => {
  test('create, get, list, update, no change, delete; a tag on a document cannot be deleted', async () => {
    const context = contextFor(orgId, docId);
    const tag = await ok(context, 'create_tag', { name: 'receipts', color: '#10B981', description: 'Shop receipts' });
    assert.deepEqual(
      { name: tag.name, color: tag.color, description: tag.description },
      { name: 'receipts', color: '#10b981', description: 'Shop receipts' },
    );
    assert.equal((await ok(context, 'get_tag', { tag_id: tag.id })).name, 'receipts');
    const list = await ok(context, 'list_tags', { name_search: 'recei' });
    assert.equal(list.total_count, 1);
    assert.deepEqual(Object.keys((list.tags as object[])[0] ?? {}), ['id', 'name', 'color', 'description']);

    assert.equal((await ok(context, 'update_tag', { tag_id: tag.id, color: '#10b981' })).message, 'No changes');
    const updated = await ok(context, 'update_tag', { tag_id: tag.id, name: 'receipt' });
    assert.equal(updated.message, 'Tag updated');
    assert.equal(updated.name, 'receipt');
    await fails(context, 'create_tag', { name: 'RECEIPT' }, /already exists/);

    const doc = await documentWithText(orgId, 'receipt.txt', ['Receipt'], [tag.id as string]);
    await fails(context, 'delete_tag', { tag_id: tag.id }, /Tag "receipt" is used by document receipt\.txt/);
    await ok(context, 'update_document', { document_id: doc.id, tag_ids: [] });
    await ok(context, 'delete_tag', { tag_id: tag.id });
    await fails(context, 'get_tag', { tag_id: tag.id }, /not found/);
  });
});

describe('document tools', () => {
  test('list with filters, update (and no change), delete', async () => {
    const context = contextFor(orgId, docId);
    const tag = await ok(context, 'create_tag', { name: 'to-file' });
    const doc = await documentWithText(orgId, 'letter.txt', ['Dear customer']);
    const docContext = contextFor(orgId, doc.id);

    const updated = await ok(docContext, 'update_document', {
      document_name: 'letter-2024.txt',
      tag_ids: [tag.id],
      metadata: { sender: 'Acme' },
    });
    assert.equal(updated.message, 'Document updated');
    assert.equal(updated.id, doc.id, 'an omitted document_id is the current document');
    assert.equal(updated.document_name, 'letter-2024.txt');

    const same = await ok(docContext, 'update_document', { tag_ids: [tag.id], metadata: { sender: 'Acme' } });
    assert.equal(same.message, 'No changes');

    const byTag = await ok(context, 'list_documents', { tag_ids: [tag.id] });
    assert.equal(byTag.total_count, 1);
    const [item] = byTag.documents as Record<string, unknown>[];
    assert.deepEqual(
      { id: item?.id, name: item?.document_name, metadata: item?.metadata, pages: item?.page_count },
      { id: doc.id, name: 'letter-2024.txt', metadata: { sender: 'Acme' }, pages: 1 },
    );
    assert.equal((await ok(context, 'list_documents', { metadata_search: { sender: 'Acme' } })).total_count, 1);
    assert.equal((await ok(context, 'list_documents', { name_search: 'letter' })).total_count, 1);
    const page = await ok(context, 'list_documents', { limit: 1 });
    assert.equal((page.documents as unknown[]).length, 1);
    assert.ok(Number(page.total_count) >= 2);

    await fails(docContext, 'update_document', { tag_ids: ['missing'] }, /"missing" is not a tag/);

    const deleted = await ok(context, 'delete_document', { document_id: doc.id });
    assert.match(String(deleted.message), /letter-2024\.txt/);
    await fails(docContext, 'get_ocr_text', {}, /not found/);
    await ok(context, 'delete_tag', { tag_id: tag.id });
  });
});

describe('extraction tools', () => {
  test('run_extraction runs the working prompt with the schema and records the working state', async () => {
    const workingState: WorkingState = {};
    const context = contextFor(orgId, docId, workingState);
    const { prompt } = await invoiceSetup(context, 'run');
    fake.enqueue({ text: JSON.stringify(ANSWER) });
    const run = await ok(context, 'run_extraction');
    assert.equal(run.prompt_revid, prompt.prompt_revid);
    assert.equal(run.reused, false);
    assert.deepEqual(run.updated_llm_result, ANSWER);
    assert.deepEqual(fake.requests[0]?.body.text.format.schema, invoiceFormat.json_schema.schema);
    assert.deepEqual(workingState.extraction, ANSWER);
    assert.equal(workingState.prompt_revid, prompt.prompt_revid);

    const reused = await ok(context, 'run_extraction', { prompt_revid: prompt.prompt_revid, force: false });
    assert.equal(reused.reused, true);
    assert.equal(fake.requests.length, 1);

    const stored = await ok(context, 'get_extraction_result');
    assert.deepEqual(stored.updated_llm_result, ANSWER);
    assert.equal(stored.is_edited, false);
    assert.equal(stored.llm_result, undefined, 'the original is shown only when edited');
  });

  test("run_extraction moves the document's state as the job does: failed while its latest run failed, then completed", async () => {
    const doc = await documentWithText(orgId, 'agent-state.txt', [INVOICE]);
    const stateOf = async () => {
      const { state, stateError } = await getDocument(database.db, orgId, doc.id);
      return { state, stateError };
    };
    assert.equal((await stateOf()).state, 'ocr_completed');
    const context = contextFor(orgId, doc.id);
    const { prompt } = await invoiceSetup(context, 'state');
    fake.enqueue({ text: 'not JSON' }, { text: 'still not JSON' });
    await fails(context, 'run_extraction', {}, /failed twice/);
    const failed = await stateOf();
    assert.equal(failed.state, 'llm_failed', 'not left at "Text ready"');
    assert.match(failed.stateError ?? '', new RegExp(`^${String(prompt.name)}: `));

    fake.enqueue({ text: JSON.stringify(ANSWER) });
    await ok(context, 'run_extraction', {});
    assert.deepEqual(await stateOf(), { state: 'llm_completed', stateError: null });
  });

  test('run_extraction without a working prompt runs the default prompt', async () => {
    const workingState: WorkingState = {};
    const context = contextFor(orgId, docId, workingState);
    const summary = { document_type: 'invoice', summary: 'An invoice.', key_facts: ['Acme GmbH'] };
    fake.enqueue({ text: JSON.stringify(summary) });
    const run = await ok(context, 'run_extraction', {});
    assert.equal(run.prompt_name, 'Document Summary');
    assert.deepEqual(workingState.extraction, summary);
    const all = await ok(contextFor(orgId, docId), 'get_extraction_result');
    assert.ok((all.results as Record<string, unknown>[]).some((r) => r.prompt_name === 'Document Summary'));
  });

  test('update_extraction_field patches a dot path into an array; a value breaking the schema is refused', async () => {
    const workingState: WorkingState = {};
    const context = contextFor(orgId, docId, workingState);
    const { prompt } = await invoiceSetup(context, 'patch');
    fake.enqueue({ text: JSON.stringify(ANSWER) });
    await ok(context, 'run_extraction');

    const patched = await ok(context, 'update_extraction_field', { path: 'line_items.0.amount', value: 1100 });
    assert.equal(patched.previous_value, 1000);
    assert.equal(patched.is_edited, true);
    const expected = { ...ANSWER, line_items: [{ description: 'Widget', amount: 1100 }, ANSWER.line_items[1]] };
    assert.deepEqual(patched.updated_llm_result, expected);
    assert.deepEqual(workingState.extraction, expected);
    assert.equal(workingState.prompt_revid, prompt.prompt_revid);

    const appended = await ok(context, 'update_extraction_field', {
      path: 'line_items.2',
      value: { description: 'Shipping', amount: 20 },
    });
    assert.equal((appended.updated_llm_result as typeof ANSWER).line_items.length, 3);

    const broken = await fails(
      context,
      'update_extraction_field',
      { path: 'total', value: 'a lot' },
      /would break the prompt's schema \(total: must be number\)/,
    );
    assert.match(broken, /Nothing was changed/);
    await fails(context, 'update_extraction_field', { path: 'line_items.7.amount', value: 1 }, /line_items has 3 item\(s\)/);
    await fails(context, 'update_extraction_field', { path: 'vendor.name', value: 'x' }, /has no field "vendor"/);
    await fails(context, 'update_extraction_field', { path: 'total' }, /value: is required/);

    const stored = await ok(context, 'get_extraction_result', { prompt_revid: prompt.prompt_revid });
    assert.equal(stored.is_edited, true);
    assert.deepEqual(stored.llm_result, ANSWER);
    assert.equal((stored.updated_llm_result as typeof ANSWER).total, 1250);
  });

  test('a result that does not exist yet says to run the prompt', async () => {
    const context = contextFor(orgId, docId);
    const { prompt } = await invoiceSetup(context, 'not run');
    await fails(context, 'get_extraction_result', { prompt_revid: prompt.prompt_revid }, /no result.*run_extraction/);
  });
});

describe('list_llm_models and help', () => {
  test('lists the enabled models with the default', async () => {
    const result = await ok(contextFor(orgId, docId), 'list_llm_models');
    assert.ok((result.models as string[]).includes('openai:gpt-4.1-mini'));
    assert.equal(typeof result.default_model, 'string');
  });

  test('help texts cover the envelope, strict rules, nullable fields, tags and the default prompt', async () => {
    const context = contextFor(orgId, docId);
    const schemas = String((await ok(context, 'help_schemas')).help);
    for (const needle of ['"type": "json_schema"', 'additionalProperties', 'required', '{"type": "null"}', '"items"']) {
      assert.ok(schemas.includes(needle), needle);
    }
    const prompts = String((await ok(context, 'help_prompts')).help);
    assert.match(prompts, /tag/);
    assert.match(prompts, /"default"/);
  });
});

describe('arguments and organizations', () => {
  test('invalid arguments come back as an error naming the field', async () => {
    const context = contextFor(orgId, docId);
    await fails(context, 'create_schema', { response_format: invoiceFormat }, /Invalid arguments for create_schema: name/);
    await fails(context, 'get_schema', { schema_revid: 42 }, /schema_revid/);
    await fails(context, 'create_tag', { name: 'x', color: 'red' }, /color: must be a CSS hex color/);
    await fails(context, 'list_tags', { limit: 1000 }, /limit/);
    await fails(context, 'delete_tag', { tag_id: 'x', extra: true }, /Unrecognized key.*extra/);
    await fails(context, 'help_schemas', { topic: 'x' }, /topic/);
  });

  test('ids of another organization are not found, for every tool taking an id', async () => {
    const context = contextFor(orgId, docId);
    const { schema, prompt } = await invoiceSetup(context, 'private');
    const tag = await ok(context, 'create_tag', { name: 'private' });
    fake.enqueue({ text: JSON.stringify(ANSWER) });
    await ok(context, 'run_extraction', { prompt_revid: prompt.prompt_revid });

    const otherDoc = await documentWithText(otherOrgId, 'theirs.txt', ['Other text']);
    const other = contextFor(otherOrgId, otherDoc.id);
    const notFound = /not found/;
    await fails(other, 'get_schema', { schema_revid: schema.schema_revid }, notFound);
    await fails(other, 'validate_against_schema', { schema_revid: schema.schema_revid, data: ANSWER }, notFound);
    await fails(other, 'update_schema', { schema_id: schema.schema_id, name: 'stolen' }, notFound);
    await fails(other, 'delete_schema', { schema_id: schema.schema_id }, notFound);
    await fails(other, 'get_prompt', { prompt_revid: prompt.prompt_revid }, notFound);
    await fails(other, 'update_prompt', { prompt_id: prompt.prompt_id, content: 'stolen' }, notFound);
    await fails(other, 'delete_prompt', { prompt_id: prompt.prompt_id }, notFound);
    await fails(other, 'create_prompt', { name: 'X', content: 'x', schema_id: schema.schema_id }, notFound);
    await fails(other, 'get_tag', { tag_id: tag.id }, notFound);
    await fails(other, 'update_tag', { tag_id: tag.id, name: 'stolen' }, notFound);
    await fails(other, 'delete_tag', { tag_id: tag.id }, notFound);
    await fails(other, 'get_ocr_text', { document_id: docId }, notFound);
    await fails(other, 'update_document', { document_id: docId, document_name: 'stolen.txt' }, notFound);
    await fails(other, 'delete_document', { document_id: docId }, notFound);
    await fails(other, 'list_prompts', { document_id: docId }, notFound);
    await fails(other, 'get_extraction_result', { document_id: docId, prompt_revid: prompt.prompt_revid }, notFound);
    await fails(other, 'get_extraction_result', { prompt_revid: prompt.prompt_revid }, notFound);
    await fails(other, 'run_extraction', { document_id: docId }, notFound);
    await fails(other, 'run_extraction', { prompt_revid: prompt.prompt_revid }, notFound);
    await fails(other, 'update_extraction_field', { document_id: docId, path: 'total', value: 1 }, notFound);
    await fails(other, 'update_extraction_field', { prompt_revid: prompt.prompt_revid, path: 'total', value: 1 }, notFound);
    assert.equal(fake.requests.length, 1, 'no LLM call for another organization');

    // Lists show only the organization's own resources.
    assert.equal((await ok(other, 'list_documents')).total_count, 1);
    assert.equal((await ok(other, 'list_schemas')).total_count, 0);
    assert.equal((await ok(other, 'list_tags')).total_count, 0);
    // And the first organization's data is intact.
    assert.equal((await ok(context, 'get_tag', { tag_id: tag.id })).name, 'private');
  });
});
