import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createApiToken, createTag, setMembership, tables } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { eq } from 'drizzle-orm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let carol: Awaited<ReturnType<typeof seedMember>>;
let carolInAlice: string;

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR';
const ANSWER = { invoice_number: '2024-117', customer: 'Acme GmbH', total: 1250 };
const SUMMARY = { document_type: 'invoice', summary: 'An invoice to Acme GmbH.', key_facts: ['1,250.00 EUR'] };
const responseFormat = strictResponseFormat({
  invoice_number: { type: 'string' },
  customer: { type: 'string' },
  total: { type: 'number' },
});

type Result = {
  prompt_revid: string;
  prompt_id: string;
  prompt_version: number;
  prompt_display_name: string;
  document_id: string;
  model: string;
  llm_result: Record<string, unknown>;
  updated_llm_result: Record<string, unknown>;
  is_edited: boolean;
  is_verified: boolean;
  created_at: string;
  updated_at: string;
};

/** The schema a structured-output request carries, whichever protocol it came in. */
const schemaOf = (r: RecordedRequest) => r.body.text?.format?.schema ?? r.body.output_config?.format?.schema;

const base = (org = alice.org.id) => `/v0/orgs/${org}`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = alice.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function upload(name: string, text: string, tagIds: string[] = [], token = alice.token, org = alice.org.id) {
  const res = await call(
    'POST',
    `${base(org)}/documents`,
    { documents: [{ name, content: Buffer.from(text).toString('base64'), tag_ids: tagIds }] },
    token,
  );
  assert.equal(res.statusCode, 200, res.body);
  return json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id ?? '';
}

async function finalState(
  id: string,
  token = alice.token,
  org = alice.org.id,
  server = t,
): Promise<{ state: string; state_error: string | null }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const doc = json<{ state: string; state_error: string | null }>(
      await server.app.inject({
        method: 'GET',
        url: `${base(org)}/documents/${id}?include_content=false`,
        headers: bearer(token),
      }),
    );
    if (['llm_completed', 'llm_failed', 'ocr_failed'].includes(doc.state)) return doc;
    if (Date.now() > deadline) throw new Error(`document ${id} is still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function schemaAndPrompt(name: string, model: string, tagIds: string[] = []) {
  const schema = await call('POST', `${base()}/schemas`, { name, response_format: responseFormat });
  assert.equal(schema.statusCode, 200, schema.body);
  const prompt = await call('POST', `${base()}/prompts`, {
    name,
    content: 'Extract the invoice fields.',
    schema_id: json<{ schema_id: string }>(schema).schema_id,
    model,
    tag_ids: tagIds,
  });
  assert.equal(prompt.statusCode, 200, prompt.body);
  return json<{ prompt_revid: string; prompt_id: string }>(prompt);
}

const answerAll = (request: RecordedRequest) => ({ text: JSON.stringify(schemaOf(request) ? ANSWER : SUMMARY) });

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test-openai',
    OPENAI_BASE_URL: fake.baseUrl,
    ANTHROPIC_API_KEY: 'sk-test-anthropic',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    DOCAGENT_LLM_JOB_RETRIES: '0',
    DOCAGENT_SECRET: 'a test secret of sufficient length',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  carol = await seedMember(t.database, 'carol', 'user');
  await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.user.id, role: 'user' });
  // API tokens belong to one organization: carol acts in alice's with one made there.
  carolInAlice = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.user.id })).token;
});
beforeEach(() => {
  fake.reset();
  fake.setHandler(answerAll);
});
after(async () => {
  await t.close();
  await fake.close();
});

describe('after upload', () => {
  test('the default prompt and the tagged prompts run as jobs; the document ends llm_completed', async () => {
    const tag = await createTag(t.database.db, alice.org.id, { name: 'invoices' });
    const prompt = await schemaAndPrompt('Tagged invoice', 'anthropic:claude-haiku-4-5', [tag.id]);
    const id = await upload('invoice.txt', INVOICE, [tag.id]);
    assert.equal((await finalState(id)).state, 'llm_completed');

    const all = json<{ results: Result[] }>(await call('GET', `${base()}/llm/results/${id}`)).results;
    assert.deepEqual(
      all.map((r) => r.prompt_display_name),
      ['Document Summary', 'Tagged invoice'],
    );
    assert.deepEqual(all[0]?.llm_result, SUMMARY);
    assert.deepEqual(all[1]?.llm_result, ANSWER);
    assert.equal(all[1]?.prompt_revid, prompt.prompt_revid);

    const summary = await call('GET', `${base()}/llm/result/${id}?prompt_revid=default`);
    assert.equal(summary.statusCode, 200, summary.body);
    assert.deepEqual(json<Result>(summary).llm_result, SUMMARY);
    const schemaRequests = fake.requests.filter((r) => schemaOf(r));
    assert.equal(schemaRequests.length, 1);
    assert.equal(schemaRequests[0]?.protocol, 'anthropic-messages');
    assert.deepEqual(schemaOf(schemaRequests[0] as RecordedRequest), responseFormat.json_schema.schema);
  });

  test('answers that fail twice end llm_failed with the reason', async () => {
    fake.setHandler(() => ({ text: 'not JSON at all' }));
    const id = await upload('bad.txt', INVOICE);
    const doc = await finalState(id);
    assert.equal(doc.state, 'llm_failed');
    assert.match(doc.state_error ?? '', /Document Summary: .*failed twice.*not valid JSON/);
  });

  test('a failed prompt that re-ran successfully clears llm_failed and its banner reason (issue 16, case 1)', async () => {
    fake.setHandler(() => ({ text: 'not JSON at all' }));
    const id = await upload('rerun.txt', INVOICE);
    assert.equal((await finalState(id)).state, 'llm_failed');

    fake.setHandler(answerAll);
    const run = await call('POST', `${base()}/llm/run/${id}?prompt_revid=default&force=true`);
    assert.equal(run.statusCode, 200, run.body);
    const doc = json<{ state: string; state_error: string | null }>(
      await call('GET', `${base()}/documents/${id}?include_content=false`),
    );
    assert.deepEqual([doc.state, doc.state_error], ['llm_completed', null], 'also as a reload reads it');
  });
});

describe('llm run and result', () => {
  let docId: string;
  let prompt: { prompt_revid: string; prompt_id: string };

  before(async () => {
    docId = await upload('run.txt', INVOICE);
    await finalState(docId);
    prompt = await schemaAndPrompt('Invoice (OpenAI)', 'openai:gpt-4.1-mini');
  });

  test('run stores the answer; without force the stored one comes back', async () => {
    const run = await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${prompt.prompt_revid}`);
    assert.equal(run.statusCode, 200, run.body);
    const body = json<{ status: string; result_id: string; reused: boolean; result: Result }>(run);
    assert.equal(body.status, 'success');
    assert.equal(body.reused, false);
    assert.deepEqual(body.result.llm_result, ANSWER);
    assert.equal(fake.requests[0]?.protocol, 'openai-responses');
    assert.deepEqual(schemaOf(fake.requests[0] as RecordedRequest), responseFormat.json_schema.schema);

    const again = json<{ reused: boolean }>(await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${prompt.prompt_revid}`));
    assert.equal(again.reused, true);
    assert.equal(fake.requests.length, 1);
    const forced = json<{ reused: boolean }>(
      await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${prompt.prompt_revid}&force=true`),
    );
    assert.equal(forced.reused, false);
    assert.equal(fake.requests.length, 2);
  });

  test('put edits and verifies within the schema; delete removes; fallback finds an earlier version', async () => {
    const url = `${base()}/llm/result/${docId}?prompt_revid=${prompt.prompt_revid}`;
    await call('POST', `${base()}/llm/run/${docId}?prompt_revid=${prompt.prompt_revid}`);
    const edited = await call('PUT', url, { updated_llm_result: { ...ANSWER, total: 1300 }, is_verified: true });
    assert.equal(edited.statusCode, 200, edited.body);
    const r = json<Result>(edited);
    assert.deepEqual([r.is_edited, r.is_verified, r.updated_llm_result.total, r.llm_result.total], [true, true, 1300, 1250]);

    const invalid = await call('PUT', url, { updated_llm_result: { ...ANSWER, total: 'a lot' } });
    assert.equal(invalid.statusCode, 400);
    assert.deepEqual(json<{ errors: Array<{ path: string }> }>(invalid).errors[0]?.path, 'total');

    const v2 = json<{ prompt_revid: string }>(
      await call('PUT', `${base()}/prompts/${prompt.prompt_id}`, { content: 'Extract every invoice field.' }),
    );
    assert.notEqual(v2.prompt_revid, prompt.prompt_revid);
    assert.equal((await call('GET', `${base()}/llm/result/${docId}?prompt_revid=${v2.prompt_revid}`)).statusCode, 404);
    const fallback = await call('GET', `${base()}/llm/result/${docId}?prompt_revid=${v2.prompt_revid}&fallback=true`);
    assert.equal(fallback.statusCode, 200, fallback.body);
    assert.equal(json<Result>(fallback).prompt_revid, prompt.prompt_revid);

    assert.equal((await call('DELETE', url)).statusCode, 200);
    assert.equal((await call('GET', url)).statusCode, 404);
    assert.equal((await call('DELETE', url)).statusCode, 404);
  });

  test('another organization sees nothing: documents, prompts and results are 404', async () => {
    const bobDoc = await upload('bob.txt', INVOICE, [], bob.token, bob.org.id);
    await finalState(bobDoc, bob.token, bob.org.id);
    const asBob = (method: 'GET' | 'POST', url: string) => call(method, url, undefined, bob.token);
    assert.equal((await asBob('POST', `${base()}/llm/run/${docId}`)).statusCode, 404);
    assert.equal((await asBob('POST', `${base(bob.org.id)}/llm/run/${docId}`)).statusCode, 404);
    assert.equal(
      (await asBob('POST', `${base(bob.org.id)}/llm/run/${bobDoc}?prompt_revid=${prompt.prompt_revid}`)).statusCode,
      404,
    );
    assert.equal((await asBob('GET', `${base(bob.org.id)}/llm/result/${docId}`)).statusCode, 404);
    assert.equal((await asBob('GET', `${base(bob.org.id)}/llm/results/${docId}`)).statusCode, 404);
  });

  test('provider failures and a reached limit are clear errors that store nothing', async () => {
    const url = `${base()}/llm/run/${docId}?prompt_revid=${prompt.prompt_revid}&force=true`;
    fake.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', retryAfterSeconds: 1 });
    const limited = await call('POST', url);
    assert.equal(limited.statusCode, 502);
    assert.match(json<{ detail: string }>(limited).detail, /rate limiting us \(429: Rate limit reached\)/);

    fake.enqueue({ text: '{"invoice_number": "2024-1', cutAfterEvents: 3 });
    const cut = await call('POST', url);
    assert.ok(cut.statusCode === 502 || cut.statusCode === 200, cut.body);

    const limit = await call('PUT', `${base()}/llm/settings`, { monthly_limit_usd: 0 });
    assert.equal(limit.statusCode, 200, limit.body);
    const before = fake.requests.length;
    const refused = await call('POST', url);
    assert.equal(refused.statusCode, 402);
    assert.match(json<{ detail: string }>(refused).detail, /usage limit of \$0\.00 a month is reached/);
    assert.equal(fake.requests.length, before);
    await call('PUT', `${base()}/llm/settings`, { monthly_limit_usd: null });
  });
});

describe('models and settings', () => {
  test('models lists the configured providers; an organization narrows it and picks chat models', async () => {
    const all = json<{ models: string[]; default_model: string }>(await call('GET', `${base()}/llm/models`));
    assert.ok(all.models.includes('openai:gpt-4.1-mini'));
    assert.ok(all.models.includes('anthropic:claude-sonnet-4-5'));
    assert.ok(!all.models.some((m) => m.startsWith('google:')));
    assert.equal(all.default_model, 'openai:gpt-4.1-mini');

    const put = await call(
      'PUT',
      `${base(bob.org.id)}/llm/settings`,
      {
        enabled_models: ['gpt-4.1-mini', 'claude-haiku-4-5'],
        chat_models: ['anthropic:claude-haiku-4-5'],
      },
      bob.token,
    );
    assert.equal(put.statusCode, 200, put.body);
    const chat = json<{ models: string[] }>(
      await call('GET', `${base(bob.org.id)}/llm/models?chat_only=true`, undefined, bob.token),
    );
    assert.deepEqual(chat.models, ['anthropic:claude-haiku-4-5']);

    const p = await call(
      'POST',
      `${base(bob.org.id)}/prompts`,
      { name: 'needs gpt-4o', content: 'x', model: 'openai:gpt-4o' },
      bob.token,
    );
    const doc = await upload('m.txt', INVOICE, [], bob.token, bob.org.id);
    await finalState(doc, bob.token, bob.org.id);
    const refused = await call(
      'POST',
      `${base(bob.org.id)}/llm/run/${doc}?prompt_revid=${json<{ prompt_revid: string }>(p).prompt_revid}`,
      undefined,
      bob.token,
    );
    assert.equal(refused.statusCode, 400);
    assert.match(
      json<{ detail: string }>(refused).detail,
      /openai:gpt-4o is not enabled.*openai:gpt-4.1-mini, anthropic:claude-haiku-4-5/,
    );
  });

  test('only admins change settings; provider keys are stored, only a preview is ever shown, and only to admins', async () => {
    const asUser = await call('PUT', `${base()}/llm/settings`, { monthly_limit_usd: 10 }, carolInAlice);
    assert.equal(asUser.statusCode, 403);
    const key = 'mistral-key-0123456789abcdef';
    const set = await call('PUT', `${base()}/llm/providers/mistral`, { api_key: key });
    assert.equal(set.statusCode, 200, set.body);
    assert.doesNotMatch(set.body, /0123456789abcdef/);
    const settings = json<{
      providers: Array<{ name: string; configured: boolean; key_source: string; api_key_preview: string | null }>;
    }>(await call('GET', `${base()}/llm/settings`));
    const mistral = settings.providers.find((p) => p.name === 'mistral');
    assert.deepEqual([mistral?.configured, mistral?.key_source, mistral?.api_key_preview], [true, 'organization', 'mis…cdef']);
    const asMember = await call('GET', `${base()}/llm/settings`, undefined, carolInAlice);
    assert.equal(asMember.statusCode, 200, asMember.body);
    assert.doesNotMatch(asMember.body, /mis…cdef/, 'members who are not admins see no key preview');
    const memberView = json<typeof settings>(asMember).providers.find((p) => p.name === 'mistral');
    assert.deepEqual([memberView?.configured, memberView?.key_source, memberView?.api_key_preview], [true, 'organization', null]);
    const models = json<{ models: string[] }>(await call('GET', `${base()}/llm/models`)).models;
    assert.ok(models.includes('mistral:mistral-small-latest'));
    assert.ok(
      !json<{ models: string[] }>(await call('GET', `${base(bob.org.id)}/llm/models`, undefined, bob.token)).models.some((m) =>
        m.startsWith('mistral:'),
      ),
    );
  });
});

test('with no provider configured, models says what to set and run says it too', async () => {
  const bare = await startTestApp({ DOCAGENT_WORKERS: '1' });
  try {
    const dave = await seedMember(bare.database, 'dave');
    const models = await bare.app.inject({ method: 'GET', url: `${base(dave.org.id)}/llm/models`, headers: bearer(dave.token) });
    const body = json<{ models: string[]; configure_hint: string }>(models);
    assert.deepEqual(body.models, []);
    assert.match(body.configure_hint, /OPENAI_API_KEY/);

    const up = await bare.app.inject({
      method: 'POST',
      url: `${base(dave.org.id)}/documents`,
      headers: bearer(dave.token),
      payload: { documents: [{ name: 'a.txt', content: Buffer.from(INVOICE).toString('base64') }] },
    });
    const id = json<{ documents: Array<{ document_id: string }> }>(up).documents[0]?.document_id;
    const deadline = Date.now() + 60_000;
    let state = '';
    while (state !== 'ocr_completed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      const doc = await bare.app.inject({
        method: 'GET',
        url: `${base(dave.org.id)}/documents/${id}?include_content=false`,
        headers: bearer(dave.token),
      });
      state = json<{ state: string }>(doc).state;
    }
    assert.equal(state, 'ocr_completed', 'the document stops after its text: nothing to fail, something to configure');
    const run = await bare.app.inject({ method: 'POST', url: `${base(dave.org.id)}/llm/run/${id}`, headers: bearer(dave.token) });
    assert.equal(run.statusCode, 503);
    assert.match(
      json<{ detail: string }>(run).detail,
      /No LLM provider is configured\. An admin can add a provider.s key in Settings → Models/,
    );

    // "The prompts run on this document once a model is available" (issue 16, case 2): the job
    // found no provider and left the document waiting; configuring one in Settings runs them.
    const waiting = async () =>
      (
        await bare.database.db
          .select({ since: tables.documents.llmWaitingSince })
          .from(tables.documents)
          .where(eq(tables.documents.id, id ?? ''))
      )[0]?.since ?? null;
    const deadlineWaiting = Date.now() + 60_000;
    while ((await waiting()) === null && Date.now() < deadlineWaiting) await new Promise((r) => setTimeout(r, 100));
    assert.ok(await waiting(), 'the prompts wait for a model');
    const configured = await bare.app.inject({
      method: 'PUT',
      url: `${base(dave.org.id)}/llm/providers/ollama`,
      headers: bearer(dave.token),
      payload: { base_url: fake.baseUrl, models: ['qwen3:8b'] },
    });
    assert.equal(configured.statusCode, 200, configured.body);
    const done = await finalState(id ?? '', dave.token, dave.org.id, bare);
    assert.deepEqual([done.state, done.state_error], ['llm_completed', null]);
    assert.equal(await waiting(), null);
  } finally {
    await bare.close();
  }
});
