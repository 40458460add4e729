import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, settledDocument, startTestApp, type TestApp, uploadText } from './helpers.ts';

/** Batches through the fake provider: a prompt over documents as jobs, failures per document, retry of the failed only. */

let t: TestApp;
let idle: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

interface Batch {
  batch_id: string;
  status: string;
  counts: { total: number; pending: number; running: number; succeeded: number; failed: number; cancelled: number };
}

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
const call = (server: TestApp, method: 'GET' | 'POST', url: string, payload?: object, token = alice.token) =>
  server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

/** The fake model answers every call; a document mentioning FAIL gets a provider error. */
const answers = (r: RecordedRequest) =>
  JSON.stringify(r.body).includes('FAIL')
    ? { kind: 'error' as const, status: 500, message: 'boom' }
    : { text: JSON.stringify({ total: 1 }) };

const upload = (server: TestApp, name: string, text: string, who = alice) => uploadText(server, who, name, text);
const settled = (id: string) => settledDocument(t, alice, id);

async function finished(batchId: string): Promise<Batch> {
  for (let i = 0; i < 1200; i++) {
    const batch = json<Batch>(await call(t, 'GET', `${base()}/batches/${batchId}`));
    if (batch.status !== 'running') return batch;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`batch ${batchId} never finished`);
}

async function prompt(name: string): Promise<{ prompt_id: string; prompt_revid: string }> {
  const res = await call(t, 'POST', `${base()}/prompts`, { name, content: 'Extract the total.' });
  assert.equal(res.statusCode, 200, res.body);
  return json<{ prompt_id: string; prompt_revid: string }>(res);
}

describe('batches', () => {
  test('a batch runs each document as a job; a provider failing on one fails that one only; retry runs only it', async () => {
    fake.setHandler(answers);
    const ids = [
      await upload(t, 'a.txt', 'Invoice A total 1'),
      await upload(t, 'b.txt', 'Invoice B FAIL'),
      await upload(t, 'c.txt', 'Invoice C total 1'),
    ];
    for (const id of ids) await settled(id);
    const { prompt_id: promptId, prompt_revid: promptRevid } = await prompt('Totals');
    fake.reset();
    fake.setHandler(answers);
    const created = await call(t, 'POST', `${base()}/prompts/${promptId}/batches`, { document_ids: ids });
    assert.equal(created.statusCode, 200, created.body);
    const batch = await finished(json<Batch>(created).batch_id);
    assert.equal(batch.status, 'finished');
    assert.deepEqual([batch.counts.total, batch.counts.succeeded, batch.counts.failed], [3, 2, 1]);
    const failed = json<{ documents: Array<{ document_id: string; error: string | null }> }>(
      await call(t, 'GET', `${base()}/batches/${batch.batch_id}/documents?status=failed`),
    ).documents;
    assert.deepEqual(
      failed.map((d) => d.document_id),
      [ids[1]],
    );
    assert.match(failed[0]?.error ?? '', /500|boom/);

    fake.reset();
    fake.setHandler(() => ({ text: JSON.stringify({ total: 2 }) }));
    const retried = await call(t, 'POST', `${base()}/batches/${batch.batch_id}/retry`);
    assert.equal(retried.statusCode, 200, retried.body);
    const again = await finished(batch.batch_id);
    assert.deepEqual([again.counts.succeeded, again.counts.failed], [3, 0]);
    assert.equal(fake.requests.length, 1, 'only the failed document ran again');
    const result = json<{ updated_llm_result: { total: number } }>(
      await call(t, 'GET', `${base()}/llm/result/${ids[1]}?prompt_revid=${promptRevid}`),
    );
    assert.equal(result.updated_llm_result.total, 2);
    const none = await call(t, 'POST', `${base()}/batches/${batch.batch_id}/retry`);
    assert.equal(none.statusCode, 400, 'nothing failed is left to retry');
  });

  test('documents chosen by name; a cancelled batch cancels what has not started', async () => {
    const idleAlice = await seedMember(idle.database, 'idle');
    const ids = [
      await upload(idle, 'alpha-1.txt', 'x', idleAlice),
      await upload(idle, 'alpha-2.txt', 'x', idleAlice),
      await upload(idle, 'beta.txt', 'y', idleAlice),
    ];
    assert.equal(ids.length, 3);
    const own = (path: string, payload?: object) =>
      call(idle, payload ? 'POST' : 'GET', `${base(idleAlice.org.id)}${path}`, payload, idleAlice.token);
    const idlePrompt = json<{ prompt_id: string }>(await own('/prompts', { name: 'P', content: 'Extract.' })).prompt_id;
    const byName = json<Batch>(await own(`/prompts/${idlePrompt}/batches`, { name_search: 'alpha' }));
    assert.deepEqual([byName.status, byName.counts.total, byName.counts.pending], ['running', 2, 2]);
    const cancelled = json<Batch>(await own(`/batches/${byName.batch_id}/cancel`, {}));
    assert.deepEqual([cancelled.status, cancelled.counts.cancelled, cancelled.counts.pending], ['cancelled', 2, 0]);
  });

  test('bad requests: two ways of choosing, no match, another organization', async () => {
    const { prompt_id: promptId } = await prompt('Checks');
    const both = await call(t, 'POST', `${base()}/prompts/${promptId}/batches`, {
      document_ids: ['a'.repeat(24)],
      name_search: 'x',
    });
    assert.equal(both.statusCode, 400);
    const nothing = await call(t, 'POST', `${base()}/prompts/${promptId}/batches`, { name_search: 'no document has this name' });
    assert.equal(nothing.statusCode, 400);
    assert.match(json<{ detail: string }>(nothing).detail, /No document matches/);
    const theirs = await upload(t, 'bob.txt', 'bob', bob);
    const foreign = await call(t, 'POST', `${base()}/prompts/${promptId}/batches`, { document_ids: [theirs] });
    assert.equal(foreign.statusCode, 404);
    assert.equal(
      (await call(t, 'POST', `${base(bob.org.id)}/prompts/${promptId}/batches`, { name_search: 'x' }, bob.token)).statusCode,
      404,
    );
  });
});
