import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { tables } from '@docagent/core';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, settledDocument, startTestApp, type TestApp, uploadText } from './helpers.ts';

/**
 * Evaluations through the fake provider with known answers: verified results are the truth, two
 * revisions answer differently in known ways, the accuracies, differences and comparison are
 * exactly what those differences give, and the verified results are left as the person made them.
 */

let t: TestApp;
let idle: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  fake = await startFakeLlm();
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0', DOCAGENT_LLM_JOB_RETRIES: '0' };
  t = await startTestApp({ ...env, DOCAGENT_WORKERS: '1' });
  idle = await startTestApp({ ...env, DOCAGENT_WORKERS: '0' });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await idle.close();
  await fake.close();
});

const base = (org = alice.org.id) => `/v0/orgs/${org}`;
const call = (server: TestApp, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = alice.token) =>
  server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

/** What a person verified for each document. */
const TRUTH: Record<string, Record<string, unknown>> = {
  'DOC-A': {
    invoice_number: 'INV-1',
    total: 1234.5,
    date: '2012-11-15',
    items: [
      { sku: 'X', amount: 10 },
      { sku: 'Y', amount: 20 },
    ],
  },
  'DOC-B': { invoice_number: 'INV-2', total: 99, date: '2013-01-02', items: [{ sku: 'Z', amount: 5 }] },
  'DOC-C': { invoice_number: 'INV-3', total: 7, date: null, items: [] },
};

/** Revision 1: other notations of the truth (all correct), but B's total is wrong and the items come in another order. */
const FIRST: Record<string, Record<string, unknown>> = {
  'DOC-A': {
    invoice_number: 'inv-1',
    total: '1,234.50',
    date: 'Nov 15 2012',
    items: [
      { sku: 'Y', amount: '20.00' },
      { sku: 'X', amount: 10 },
    ],
  },
  'DOC-B': { invoice_number: 'INV-2', total: 98, date: '2013-01-02', items: [{ sku: 'Z', amount: 5 }] },
  'DOC-C': { invoice_number: 'INV-3', total: 7, date: null, items: [] },
};

/** Revision 2: B right, but A's date is a day off and misses an item, C gains an item it does not have. */
const SECOND: Record<string, Record<string, unknown>> = {
  'DOC-A': { invoice_number: 'INV-1', total: 1234.5, date: '2012-11-16', items: [{ sku: 'X', amount: 10 }] },
  'DOC-B': { invoice_number: 'INV-2', total: 99, date: '02.01.2013', items: [{ sku: 'Z', amount: 5 }] },
  'DOC-C': { invoice_number: 'INV-3', total: '7.00', date: null, items: [{ sku: 'Q', amount: 1 }] },
};

const answers = (r: RecordedRequest) => {
  const body = JSON.stringify(r.body);
  const doc = Object.keys(TRUTH).find((marker) => body.includes(marker));
  const table = body.includes('REVISION-TWO') ? SECOND : FIRST;
  return { text: JSON.stringify(doc ? table[doc] : {}) };
};

interface Evaluation {
  evaluation_id: string;
  prompt_revid: string;
  prompt_version: number;
  status: string;
  counts: { total: number; pending: number; succeeded: number; failed: number; cancelled: number };
  document_ids: string[];
}
interface Report extends Evaluation {
  accuracy: {
    overall: number | null;
    correct: number;
    total: number;
    documents: number;
    complete: boolean;
    fields: Array<{ path: string; correct: number; total: number; accuracy: number }>;
  };
  differences: Array<{
    document_id: string;
    document_name: string;
    path: string;
    field: string;
    expected: unknown;
    actual: unknown;
  }>;
}

const upload = (server: TestApp, name: string, text: string, who = alice) => uploadText(server, who, name, text);
const settled = (id: string) => settledDocument(t, alice, id);

async function finished(id: string): Promise<Report> {
  for (let i = 0; i < 1200; i++) {
    const report = json<Report>(await call(t, 'GET', `${base()}/evaluations/${id}`));
    if (report.status !== 'running') return report;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`evaluation ${id} never finished`);
}

describe('evaluations', () => {
  test('two revisions scored against verified results: accuracies, differences, comparison; the truth untouched', async () => {
    fake.setHandler(answers);
    const ids: Record<string, string> = {};
    for (const [name, marker] of [
      ['a.txt', 'DOC-A'],
      ['b.txt', 'DOC-B'],
      ['c.txt', 'DOC-C'],
    ] as const) {
      ids[marker] = await upload(t, name, `Invoice ${marker}`);
    }
    const unverified = await upload(t, 'd.txt', 'Invoice DOC-D, never verified');
    for (const id of [...Object.values(ids), unverified]) await settled(id);

    const created = json<{ prompt_id: string; prompt_revid: string }>(
      await call(t, 'POST', `${base()}/prompts`, { name: 'Invoice fields', content: 'Extract the invoice fields.' }),
    );
    const promptId = created.prompt_id;
    const first = created.prompt_revid;
    // Revision 1's results, corrected and verified by a person: the truth.
    for (const [marker, id] of Object.entries(ids)) {
      const ran = await call(t, 'POST', `${base()}/llm/run/${id}?prompt_revid=${first}`);
      assert.equal(ran.statusCode, 200, ran.body);
      const verified = await call(t, 'PUT', `${base()}/llm/result/${id}?prompt_revid=${first}`, {
        updated_llm_result: TRUTH[marker],
        is_verified: true,
      });
      assert.equal(verified.statusCode, 200, verified.body);
    }
    await call(t, 'POST', `${base()}/llm/run/${unverified}?prompt_revid=${first}`);
    const changed = await call(t, 'PUT', `${base()}/prompts/${promptId}`, {
      content: 'Extract the invoice fields. REVISION-TWO',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const second = json<{ prompt_revid: string }>(changed).prompt_revid;
    assert.notEqual(second, first);

    fake.reset();
    fake.setHandler(answers);
    const startA = await call(t, 'POST', `${base()}/prompts/${promptId}/evaluations`, { prompt_revid: first });
    assert.equal(startA.statusCode, 200, startA.body);
    const evalA = json<Evaluation>(startA);
    assert.equal(evalA.prompt_revid, first);
    assert.equal(evalA.prompt_version, 1);
    assert.equal(evalA.counts.total, 3, 'the evaluation set: the three verified documents');
    assert.deepEqual(new Set(evalA.document_ids), new Set(Object.values(ids)));
    const a = await finished(evalA.evaluation_id);
    assert.equal(fake.requests.length, 3, 'one model call per verified document');

    const startB = await call(t, 'POST', `${base()}/prompts/${promptId}/evaluations`, {});
    assert.equal(startB.statusCode, 200, startB.body);
    const evalB = json<Evaluation>(startB);
    assert.equal(evalB.prompt_revid, second, 'the latest revision by default');
    const b = await finished(evalB.evaluation_id);

    assert.equal(a.status, 'finished');
    assert.deepEqual(a.counts.succeeded, 3);
    assert.deepEqual(
      { overall: a.accuracy.overall, correct: a.accuracy.correct, total: a.accuracy.total, documents: a.accuracy.documents },
      { overall: 0.9375, correct: 15, total: 16, documents: 3 },
    );
    assert.equal(a.accuracy.complete, true);
    assert.deepEqual(a.accuracy.fields, [
      { path: 'invoice_number', correct: 3, total: 3, accuracy: 1 },
      { path: 'total', correct: 2, total: 3, accuracy: 0.6667 },
      { path: 'date', correct: 3, total: 3, accuracy: 1 },
      { path: 'items[].sku', correct: 3, total: 3, accuracy: 1 },
      { path: 'items[].amount', correct: 3, total: 3, accuracy: 1 },
      { path: 'items', correct: 1, total: 1, accuracy: 1 },
    ]);
    assert.deepEqual(a.differences, [
      { document_id: ids['DOC-B'], document_name: 'b.txt', path: 'total', field: 'total', expected: 99, actual: 98 },
    ]);

    assert.deepEqual(
      { overall: b.accuracy.overall, correct: b.accuracy.correct, total: b.accuracy.total },
      { overall: 0.7059, correct: 12, total: 17 },
    );
    assert.deepEqual(b.accuracy.fields, [
      { path: 'invoice_number', correct: 3, total: 3, accuracy: 1 },
      { path: 'total', correct: 3, total: 3, accuracy: 1 },
      { path: 'date', correct: 2, total: 3, accuracy: 0.6667 },
      { path: 'items[].sku', correct: 2, total: 4, accuracy: 0.5 },
      { path: 'items[].amount', correct: 2, total: 4, accuracy: 0.5 },
    ]);
    const docA = { document_id: ids['DOC-A'], document_name: 'a.txt' };
    const docC = { document_id: ids['DOC-C'], document_name: 'c.txt' };
    assert.deepEqual(b.differences, [
      { ...docA, path: 'date', field: 'date', expected: '2012-11-15', actual: '2012-11-16' },
      { ...docA, path: 'items[1].sku', field: 'items[].sku', expected: 'Y', actual: null },
      { ...docA, path: 'items[1].amount', field: 'items[].amount', expected: 20, actual: null },
      { ...docC, path: 'items[0].sku', field: 'items[].sku', expected: null, actual: 'Q' },
      { ...docC, path: 'items[0].amount', field: 'items[].amount', expected: null, actual: 1 },
    ]);

    const compared = await call(
      t,
      'GET',
      `${base()}/prompts/${promptId}/evaluations/compare?a=${evalA.evaluation_id}&b=${evalB.evaluation_id}`,
    );
    assert.equal(compared.statusCode, 200, compared.body);
    const comparison = json<{
      a: { prompt_revid: string };
      b: { prompt_revid: string };
      overall: { a: number; b: number; changed: boolean };
      fields: Array<{ path: string; a: { accuracy: number } | null; b: { accuracy: number } | null; changed: boolean }>;
      changed_fields: string[];
    }>(compared);
    assert.deepEqual([comparison.a.prompt_revid, comparison.b.prompt_revid], [first, second]);
    assert.deepEqual(comparison.overall, { a: 0.9375, b: 0.7059, changed: true });
    assert.deepEqual(
      comparison.fields.map((f) => [f.path, f.a?.accuracy ?? null, f.b?.accuracy ?? null, f.changed]),
      [
        ['invoice_number', 1, 1, false],
        ['total', 0.6667, 1, true],
        ['date', 1, 0.6667, true],
        ['items[].sku', 1, 0.5, true],
        ['items[].amount', 1, 0.5, true],
        ['items', 1, null, true],
      ],
    );
    assert.deepEqual(comparison.changed_fields, ['total', 'date', 'items[].sku', 'items[].amount', 'items']);

    // The verified results are as the person left them; the evaluations stored no result of their own.
    for (const [marker, id] of Object.entries(ids)) {
      const result = json<{ llm_result: unknown; updated_llm_result: unknown; is_verified: boolean }>(
        await call(t, 'GET', `${base()}/llm/result/${id}?prompt_revid=${first}`),
      );
      assert.deepEqual(result.updated_llm_result, TRUTH[marker]);
      assert.deepEqual(result.llm_result, FIRST[marker]);
      assert.equal(result.is_verified, true);
      assert.equal((await call(t, 'GET', `${base()}/llm/result/${id}?prompt_revid=${second}`)).statusCode, 404);
    }

    const listed = json<{ evaluations: Evaluation[] }>(await call(t, 'GET', `${base()}/prompts/${promptId}/evaluations`));
    assert.deepEqual(
      listed.evaluations.map((e) => e.evaluation_id),
      [evalB.evaluation_id, evalA.evaluation_id],
      'newest first',
    );
    const runs = json<{ batches: unknown[] }>(await call(t, 'GET', `${base()}/prompts/${promptId}/batches`));
    assert.deepEqual(runs.batches, [], "evaluations are not listed among the prompt's batch runs");
    const asBatch = json<{ kind: string }>(await call(t, 'GET', `${base()}/batches/${evalA.evaluation_id}`));
    assert.equal(asBatch.kind, 'evaluation');

    // Another organization sees none of it.
    const asBob = (method: 'GET' | 'POST', url: string, payload?: object) => call(t, method, url, payload, bob.token);
    assert.equal((await asBob('GET', `${base(bob.org.id)}/evaluations/${evalA.evaluation_id}`)).statusCode, 404);
    assert.equal((await asBob('POST', `${base(bob.org.id)}/prompts/${promptId}/evaluations`, {})).statusCode, 404);
    assert.equal((await asBob('GET', `${base(bob.org.id)}/prompts/${promptId}/evaluations`)).statusCode, 404);
    assert.equal(
      (
        await asBob(
          'GET',
          `${base(bob.org.id)}/prompts/${promptId}/evaluations/compare?a=${evalA.evaluation_id}&b=${evalB.evaluation_id}`,
        )
      ).statusCode,
      404,
    );
    assert.equal((await asBob('GET', `${base()}/evaluations/${evalA.evaluation_id}`)).statusCode, 404);
    // A batch run is not an evaluation.
    const run = json<{ batch_id: string }>(
      await call(t, 'POST', `${base()}/prompts/${promptId}/batches`, { document_ids: [unverified] }),
    );
    assert.equal((await call(t, 'GET', `${base()}/evaluations/${run.batch_id}`)).statusCode, 404);
  });

  test('the agent evaluates a prompt once the person agrees: its tool answers the accuracy', async () => {
    const id = await upload(t, 'e.txt', 'Invoice DOC-E, total 5');
    fake.setHandler(() => ({ text: JSON.stringify({ total: 5 }) }));
    await settled(id);
    const made = json<{ prompt_id: string; prompt_revid: string }>(
      await call(t, 'POST', `${base()}/prompts`, { name: 'Agent evaluated', content: 'Extract the total.' }),
    );
    assert.equal((await call(t, 'POST', `${base()}/llm/run/${id}?prompt_revid=${made.prompt_revid}`)).statusCode, 200);
    const verified = await call(t, 'PUT', `${base()}/llm/result/${id}?prompt_revid=${made.prompt_revid}`, {
      updated_llm_result: { total: 5 },
      is_verified: true,
    });
    assert.equal(verified.statusCode, 200, verified.body);
    const outputs = (r: RecordedRequest) =>
      ((r.body.input ?? []) as Array<{ type?: string; output?: string }>).filter((i) => i.type === 'function_call_output');
    // The agent's steps carry tools; the evaluation's own extraction does not.
    fake.setHandler((r) => {
      if (!r.body.tools) return { text: JSON.stringify({ total: '5.00' }) };
      return outputs(r).length === 0
        ? { toolCalls: [{ name: 'evaluate_prompt', arguments: { prompt_revid: made.prompt_revid } }] }
        : { text: 'The prompt is right on every verified document.' };
    });
    const chat = `${base()}/documents/${id}/chat`;
    const paused = json<{ turn_id: string; tool_calls: Array<{ id: string; name: string }> }>(
      await call(t, 'POST', chat, { model: 'openai:gpt-4.1', messages: [{ role: 'user', content: 'How good is the prompt?' }] }),
    );
    assert.deepEqual(
      paused.tool_calls.map((c) => c.name),
      ['evaluate_prompt'],
      'it asks first',
    );
    assert.deepEqual(
      json<{ evaluations: unknown[] }>(await call(t, 'GET', `${base()}/prompts/${made.prompt_id}/evaluations`)).evaluations,
      [],
    );
    const done = await call(t, 'POST', `${chat}/approve`, {
      turn_id: paused.turn_id,
      approvals: [{ call_id: paused.tool_calls[0]?.id, approved: true }],
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(json<{ text: string }>(done).text, 'The prompt is right on every verified document.');
    const answered = fake.requests.filter((r) => r.body.tools && outputs(r).length > 0).at(-1);
    const result = JSON.parse(outputs(answered as RecordedRequest)[0]?.output ?? '{}') as {
      overall_accuracy: number;
      status: string;
    };
    assert.deepEqual([result.status, result.overall_accuracy], ['finished', 1]);
    const [evaluation] = json<{ evaluations: Array<{ evaluation_id: string }> }>(
      await call(t, 'GET', `${base()}/prompts/${made.prompt_id}/evaluations`),
    ).evaluations;
    assert.equal((await finished(evaluation?.evaluation_id as string)).accuracy.overall, 1);
  });

  test('no verified document: a clear 409', async () => {
    const { prompt_id: promptId } = json<{ prompt_id: string }>(
      await call(t, 'POST', `${base()}/prompts`, { name: 'Unverified', content: 'Extract.' }),
    );
    const res = await call(t, 'POST', `${base()}/prompts/${promptId}/evaluations`, {});
    assert.equal(res.statusCode, 409, res.body);
    assert.match(json<{ detail: string }>(res).detail, /no verified documents: verify some results first/);
    assert.equal((await call(t, 'POST', `${base()}/prompts/${promptId}/evaluations`, { prompt_revid: 'nope' })).statusCode, 404);
  });

  test('while running no accuracy yet; cancelled half-way through the batch routes', async () => {
    const carol = await seedMember(idle.database, 'carol');
    const own = (method: 'GET' | 'POST', path: string, payload?: object) =>
      call(idle, method, `${base(carol.org.id)}${path}`, payload, carol.token);
    const documentId = await upload(idle, 'x.txt', 'x', carol);
    const prompt = json<{ prompt_id: string; prompt_revid: string }>(
      await own('POST', '/prompts', { name: 'P', content: 'Extract.' }),
    );
    // A verified result, written directly: no worker runs text extraction on this server.
    await idle.database.db.insert(tables.extractionResults).values({
      id: 'r'.repeat(24),
      orgId: carol.org.id,
      documentId,
      promptId: prompt.prompt_id,
      promptRevid: prompt.prompt_revid,
      promptVersion: 1,
      model: 'm',
      llmResult: { total: 1 },
      updatedLlmResult: { total: 1 },
      isVerified: true,
    });
    const started = json<Evaluation>(await own('POST', `/prompts/${prompt.prompt_id}/evaluations`, {}));
    assert.deepEqual([started.status, started.counts.pending], ['running', 1]);
    const running = json<Report>(await own('GET', `/evaluations/${started.evaluation_id}`));
    assert.deepEqual(
      [running.accuracy.overall, running.accuracy.documents, running.accuracy.complete, running.differences],
      [null, 0, false, []],
    );
    const cancelled = json<{ status: string; counts: { cancelled: number } }>(
      await own('POST', `/batches/${started.evaluation_id}/cancel`, {}),
    );
    assert.deepEqual([cancelled.status, cancelled.counts.cancelled], ['cancelled', 1]);
    const report = json<Report>(await own('GET', `/evaluations/${started.evaluation_id}`));
    assert.deepEqual([report.status, report.accuracy.overall, report.accuracy.complete], ['cancelled', null, true]);
  });
});
