import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/** One of the invoices with ground truth beside the repository (../shared/data/invoices, or DOCAGENT_INVOICES_DIR). */
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const INVOICES = process.env.DOCAGENT_INVOICES_DIR ?? resolve(REPO_ROOT, '..', 'shared', 'data', 'invoices');
const FILE = 'invoice_Shui Tom_4958';
const PDF = join(INVOICES, 'docs', `${FILE}.pdf`);
const skip = existsSync(PDF)
  ? false
  : `the sample invoice is not at ${PDF} (set DOCAGENT_INVOICES_DIR to where docs/ and labels/ are)`;

type Citation = {
  path: string;
  page: number | null;
  boxes: Array<{ x: number; y: number; width: number; height: number }>;
  text: string;
  match: string;
  confidence: number;
  probability?: number;
};
type Result = {
  updated_llm_result: Record<string, unknown>;
  citations: Citation[];
  fields_to_review: string[];
  is_verified: boolean;
};

const FIELDS = [
  'vendor',
  'document_number',
  'date',
  'ship_mode',
  'order_id',
  'currency',
  'subtotal',
  'discount',
  'shipping',
  'total',
];
const responseFormat = strictResponseFormat(Object.fromEntries(FIELDS.map((f) => [f, { type: 'string' }])));
const SUMMARY = { document_type: 'invoice', summary: 'An invoice from SuperStore.', key_facts: ['$2,384.15'] };

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let answer: Record<string, string>;

const base = () => `/v0/orgs/${alice.org.id}`;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(alice.token), ...(payload === undefined ? {} : { payload: payload as object }) });
const schemaOf = (r: RecordedRequest) => r.body.text?.format?.schema ?? r.body.output_config?.format?.schema;
const cited = (result: Result, path: string): Citation => {
  const c = result.citations.find((x) => x.path === path);
  assert.ok(c, `a citation for ${path}`);
  return c;
};

before(async () => {
  if (skip) return;
  const { __meta__: _, ...labels } = JSON.parse(readFileSync(join(INVOICES, 'labels', `${FILE}.json`), 'utf8'));
  answer = labels;
  fake = await startFakeLlm();
  fake.setHandler((request) => ({ text: JSON.stringify(schemaOf(request) ? answer : SUMMARY) }));
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: fake.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test-anthropic',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    DOCAGENT_LLM_JOB_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
});
after(async () => {
  await t?.close();
  await fake?.close();
});

async function uploadInvoice(): Promise<string> {
  const res = await call('POST', `${base()}/documents`, {
    documents: [{ name: `${FILE}.pdf`, content: readFileSync(PDF).toString('base64') }],
  });
  assert.equal(res.statusCode, 200, res.body);
  const id = json<{ documents: Array<{ document_id: string }> }>(res).documents[0]!.document_id;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const doc = json<{ state: string }>(await call('GET', `${base()}/documents/${id}?include_content=false`));
    if (['llm_completed', 'llm_failed', 'ocr_failed'].includes(doc.state)) {
      assert.equal(doc.state, 'llm_completed');
      return id;
    }
    if (Date.now() > deadline) throw new Error(`document ${id} is still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('citations of a result', { skip }, () => {
  let docId: string;
  let revid: string;
  let first: Result;

  before(async () => {
    docId = await uploadInvoice();
    const schema = await call('POST', `${base()}/schemas`, { name: 'Invoice', response_format: responseFormat });
    assert.equal(schema.statusCode, 200, schema.body);
    const prompt = await call('POST', `${base()}/prompts`, {
      name: 'Invoice',
      content: 'Extract the invoice fields.',
      schema_id: json<{ schema_id: string }>(schema).schema_id,
      model: 'openai:gpt-4.1-mini',
    });
    assert.equal(prompt.statusCode, 200, prompt.body);
    revid = json<{ prompt_revid: string }>(prompt).prompt_revid;
  });

  test('an extraction is served with a citation per value: page, boxes, matched text, and the fields to review', async () => {
    const run = await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${revid}`);
    assert.equal(run.statusCode, 200, run.body);
    assert.deepEqual(json<{ result: Result }>(run).result.citations.length, FIELDS.length, 'the run answers with them too');

    const res = await call('GET', `${base()}/llm/result/${docId}?prompt_revid=${revid}`);
    assert.equal(res.statusCode, 200, res.body);
    first = json<Result>(res);
    assert.deepEqual(
      first.citations.map((c) => c.path),
      FIELDS,
    );
    for (const c of first.citations.filter((x) => x.path !== 'currency')) {
      assert.equal(c.page, 1, c.path);
      assert.notEqual(c.match, 'not_found', c.path);
      assert.ok(c.boxes.length >= 1, c.path);
      for (const b of c.boxes) assert.ok(b.width > 0 && b.height > 0 && b.x >= 0 && b.y >= 0 && b.x + b.width <= 612, c.path);
    }
    assert.deepEqual(
      [cited(first, 'total').match, cited(first, 'total').text, cited(first, 'date').text, cited(first, 'order_id').match],
      ['normalized', '$2,384.15', 'Nov 21 2012', 'exact'],
    );
    // The page says "$", not "USD". The fake provider is sure of every token unless told otherwise.
    assert.deepEqual(cited(first, 'currency'), {
      path: 'currency',
      page: null,
      boxes: [],
      text: '',
      match: 'not_found',
      confidence: 0.2,
      probability: 1,
    });
    assert.ok(first.citations.every((c) => c.probability === 1));
    assert.deepEqual(first.fields_to_review, ['currency']);

    const list = json<{ results: Array<Result & { prompt_revid: string }> }>(await call('GET', `${base()}/llm/results/${docId}`));
    const listed = list.results.find((r) => r.prompt_revid === revid);
    assert.deepEqual(listed?.citations, first.citations, 'the list of results serves them too');
    const summary = list.results.find((r) => r.prompt_revid !== revid);
    assert.equal(summary?.citations.find((c) => c.path === 'key_facts[0]')?.text, '$2,384.15', 'and the default prompt has them');
  });

  test('a person edits a value to another in the text: its citation moves; to one not in the text: not found, to review', async () => {
    const before = cited(first, 'total');
    const moved = await call('PUT', `${base()}/llm/result/${docId}?prompt_revid=${revid}`, {
      updated_llm_result: { ...answer, total: '2257.54' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    const edited = json<Result>(moved);
    const total = cited(edited, 'total');
    assert.deepEqual([total.page, total.text, total.match], [1, '$2,257.54', 'normalized']);
    assert.notDeepEqual(total.boxes, before.boxes);
    assert.deepEqual(cited(edited, 'subtotal'), cited(first, 'subtotal'), 'the other values keep theirs');

    const gone = await call('PUT', `${base()}/llm/result/${docId}?prompt_revid=${revid}`, {
      updated_llm_result: { ...answer, total: '9999.99' },
    });
    assert.equal(gone.statusCode, 200, gone.body);
    const missing = json<Result>(gone);
    // The person's value, not the model's: no probability of the model's.
    assert.deepEqual(cited(missing, 'total'), {
      path: 'total',
      page: null,
      boxes: [],
      text: '',
      match: 'not_found',
      confidence: 0.2,
    });
    assert.deepEqual(missing.fields_to_review, ['currency', 'total']);

    const read = json<Result>(await call('GET', `${base()}/llm/result/${docId}?prompt_revid=${revid}`));
    assert.deepEqual(read.citations, missing.citations, 'stored, not only answered');

    const verified = await call('PUT', `${base()}/llm/result/${docId}?prompt_revid=${revid}`, {
      updated_llm_result: { ...answer, total: '2384.15' },
      is_verified: true,
    });
    const back = json<Result>(verified);
    assert.equal(back.is_verified, true);
    assert.deepEqual(back.citations, first.citations, 'back to the value read: the same citations');
    assert.deepEqual(back.fields_to_review, ['currency']);
  });

  test("a value the model hesitated over (token log-probabilities) is to review even where the page has it; a person's correction drops that", async () => {
    fake.setHandler((request) => ({
      text: JSON.stringify(schemaOf(request) ? answer : SUMMARY),
      logprobs: { [answer.vendor as string]: Math.log(0.4), [answer.order_id as string]: Math.log(0.9) },
    }));
    const run = await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${revid}&force=true`);
    assert.equal(run.statusCode, 200, run.body);
    const asked = fake.requests.at(-1);
    assert.deepEqual(asked?.body.include, ['message.output_text.logprobs'], 'the extraction asked for them');
    const unsure = json<Result>(await call('GET', `${base()}/llm/result/${docId}?prompt_revid=${revid}`));
    const vendor = cited(unsure, 'vendor');
    assert.deepEqual([vendor.match, vendor.probability, vendor.confidence], ['exact', 0.4, 0.4]);
    const order = cited(unsure, 'order_id');
    assert.deepEqual([order.match, order.probability, order.confidence], ['exact', 0.9, 0.9]);
    assert.deepEqual(unsure.fields_to_review, ['vendor', 'currency']);

    const other = json<Result>(
      await call('PUT', `${base()}/llm/result/${docId}?prompt_revid=${revid}`, {
        updated_llm_result: { ...answer, total: '2257.54' },
      }),
    );
    assert.equal(cited(other, 'vendor').probability, 0.4, 'a correction elsewhere leaves it');
    const corrected = json<Result>(
      await call('PUT', `${base()}/llm/result/${docId}?prompt_revid=${revid}`, {
        updated_llm_result: { ...answer, vendor: 'Superstore' },
      }),
    );
    const fixed = cited(corrected, 'vendor');
    assert.equal(fixed.probability, undefined);
    assert.notEqual(fixed.match, 'not_found');
    assert.deepEqual(corrected.fields_to_review, ['currency']);
    fake.setHandler((request) => ({ text: JSON.stringify(schemaOf(request) ? answer : SUMMARY) }));
  });

  test('the documents list filters those with a field to review', async () => {
    const plain = await call('POST', `${base()}/documents`, {
      documents: [{ name: 'plain.txt', content: Buffer.from('nothing extracted here').toString('base64') }],
    });
    assert.equal(plain.statusCode, 200, plain.body);
    const plainId = json<{ documents: Array<{ document_id: string }> }>(plain).documents[0]?.document_id as string;
    // Its prompts run on their own: the filter is checked once they have.
    for (let i = 0; i < 600; i++) {
      const doc = json<{ state: string }>(await call('GET', `${base()}/documents/${plainId}?include_content=false`));
      if (['llm_completed', 'llm_failed'].includes(doc.state)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const results = json<{ results: Result[] }>(await call('GET', `${base()}/llm/results/${plainId}`)).results;
    const plainToReview = results.some((r) => r.fields_to_review.length > 0);
    const listed = async (query: string) =>
      json<{ documents: Array<{ id: string }> }>(await call('GET', `${base()}/documents?${query}`)).documents.map((d) => d.id);
    assert.deepEqual(
      (await listed('needs_review=true')).sort(),
      (plainToReview ? [docId, plainId] : [docId]).sort(),
      'the invoice, whose currency is not found, and the other only if one of its fields is to review',
    );
    assert.equal((await listed('needs_review=false')).length, 2);
    assert.equal((await call('GET', `${base()}/documents?needs_review=maybe`)).statusCode, 400);
  });
});
