import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { DatabaseTarget } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { buildSampleCorpus, type Sample } from '@docagent/core/sample-corpus';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { type FakeReply, heldReply, startFakeLlm } from '@docagent/fake-llm';
import { PDFDocument } from 'pdf-lib';
import { idIn, outputsOfTurn, requestedSchema } from './e2e/responses-requests.ts';
import { envFor, runCli, type ServerProcess, startServer } from './processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'docagent-recovery-'));
const invoiceFormat = strictResponseFormat({ invoice_number: { type: 'string' }, total: { type: 'number' } });
let scanned: Sample;
let longScan: Buffer;

before(async () => {
  const samples = await buildSampleCorpus(join(dir, 'samples'));
  scanned = samples.find((s) => s.kind === 'pdf' && s.expectedEngine !== 'pdf_text')!;
  // Long enough to be caught in the middle of its OCR.
  const source = await PDFDocument.load(readFileSync(scanned.path));
  const long = await PDFDocument.create();
  for (let i = 0; i < 5; i++) for (const page of await long.copyPages(source, source.getPageIndices())) long.addPage(page);
  longScan = Buffer.from(await long.save());
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** The organization and API token a fresh server printed at its first start. */
function firstStartAccess(server: ServerProcess): { base: string; headers: Record<string, string> } {
  const orgId = /Organization:\s+.*\((\w+)\)/.exec(server.output())?.[1];
  const token = /API token:\s+(\S+)/.exec(server.output())?.[1];
  assert.ok(orgId && token, `the first start printed an org and a token:\n${server.output()}`);
  return {
    base: `${server.url}/v0/orgs/${orgId}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  };
}

async function upload(access: ReturnType<typeof firstStartAccess>, name: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${access.base}/documents`, {
    method: 'POST',
    headers: access.headers,
    body: JSON.stringify({ documents: [{ name, content: bytes.toString('base64') }] }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { documents: Array<{ document_id: string }> }).documents[0]!.document_id;
}

async function waitForState(access: ReturnType<typeof firstStartAccess>, id: string, states: string[]): Promise<string> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const res = await fetch(`${access.base}/documents/${id}?include_content=false`, { headers: access.headers });
    const { state, state_error } = (await res.json()) as { state: string; state_error: string | null };
    if (states.includes(state)) return state;
    if (state === 'ocr_failed') throw new Error(`text extraction failed: ${state_error}`);
    if (Date.now() > deadline) throw new Error(`document ${id} is still ${state}, waiting for ${states.join(' or ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function assertScannedText(access: ReturnType<typeof firstStartAccess>, id: string): Promise<void> {
  const text = (await (await fetch(`${access.base}/ocr/download/text/${id}`, { headers: access.headers })).text()).toLowerCase();
  assert.ok(text.includes(scanned.expected[0]!.toLowerCase()), `the OCR text holds "${scanned.expected[0]}"`);
}

/** A server's environment with the fake provider as its only model provider, one worker and no retries. */
function fakeProviderEnv(target: DatabaseTarget, fakeUrl: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env = envFor(target);
  for (const key of Object.keys(env)) {
    if (/_(API_KEY|BASE_URL|MODELS)$/.test(key)) delete env[key];
  }
  return { ...env, DOCAGENT_WORKERS: '1', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fakeUrl, LLM_MAX_RETRIES: '0', ...extra };
}

const kill = async (server: ServerProcess) => {
  server.child.kill('SIGKILL');
  if (server.child.exitCode === null && server.child.signalCode === null) await new Promise((r) => server.child.once('exit', r));
};

// Each test has its own database, server processes and fake model, and most of its time is spent
// waiting (for a heartbeat to lapse, a restart, OCR in a child process), so they run side by side.
describe('killed servers and workers', { concurrency: true }, () => {
  test(`a server killed in the middle of a text job runs it again after a restart (${testDatabaseKind()})`, async () => {
    const { target, drop } = await createTestDatabaseTarget({ dataDir: join(dir, 'data-restart') });
    const env = { ...envFor(target), DOCAGENT_WORKERS: '1', DOCAGENT_JOB_HEARTBEAT_SECONDS: '10' };
    const first = await startServer(env);
    const access = firstStartAccess(first);
    try {
      const id = await upload(access, 'long-scan.pdf', longScan);
      await waitForState(access, id, ['ocr_processing']);
      await kill(first);

      const second = await startServer(env);
      const restarted = { ...access, base: access.base.replace(first.url, second.url) };
      try {
        assert.equal(await waitForState(restarted, id, ['ocr_completed']), 'ocr_completed');
        await assertScannedText(restarted, id);
      } finally {
        await second.stop();
      }
    } finally {
      await kill(first);
      await drop();
    }
  });

  test('docagent worker processes work the jobs of a server that runs none, and a killed one is replaced', async (t) => {
    if (testDatabaseKind() !== 'postgres') {
      t.skip('separate worker processes need PostgreSQL; the embedded database is checked in the next test');
      return;
    }
    const { target, drop } = await createTestDatabaseTarget();
    const env = { ...envFor(target), DOCAGENT_WORKERS: '0', DOCAGENT_JOB_HEARTBEAT_SECONDS: '10' };
    const server = await startServer(env);
    const access = firstStartAccess(server);
    const workers: ServerProcess[] = [];
    try {
      const id = await upload(access, 'long-scan.pdf', longScan);
      workers.push(await startServer({ ...env, DOCAGENT_WORKERS: '1' }, 'worker'));
      await waitForState(access, id, ['ocr_processing']);
      await kill(workers[0]!);
      workers.push(await startServer({ ...env, DOCAGENT_WORKERS: '1' }, 'worker'));
      assert.equal(await waitForState(access, id, ['ocr_completed']), 'ocr_completed');
      await assertScannedText(access, id);
    } finally {
      for (const worker of workers) await kill(worker);
      await server.stop();
      await drop();
    }
  });

  test('docagent worker on the embedded database says it needs PostgreSQL', async (t) => {
    if (testDatabaseKind() !== 'pglite') {
      t.skip('only the embedded database refuses separate workers');
      return;
    }
    const { target } = await createTestDatabaseTarget({ dataDir: join(dir, 'data-worker') });
    const result = await runCli(['worker'], envFor(target));
    assert.equal(result.code, 1);
    assert.match(result.stderr, /docagent worker needs a PostgreSQL server \(DATABASE_URL\)/);
  });

  test(`a server killed in the middle of an auto-create run runs it again after a restart, creating nothing twice (${testDatabaseKind()})`, async () => {
    const fake = await startFakeLlm();
    const extraction = heldReply({ toolCalls: [{ name: 'run_extraction', arguments: {} }] });
    let held = false;
    fake.setHandler(async (request): Promise<FakeReply> => {
      if (!request.body?.tools) {
        return {
          text: JSON.stringify(requestedSchema(request) ? { invoice_number: '2024-117', total: 1250 } : { summary: 'x' }),
        };
      }
      const outputs = outputsOfTurn(request);
      switch (outputs.length) {
        case 0:
          return {
            toolCalls: [{ name: 'create_schema', arguments: { name: 'Invoice restart', response_format: invoiceFormat } }],
          };
        case 1: {
          const prompt = {
            name: 'Invoice fields restart',
            content: 'Extract the invoice number and total.',
            schema_id: idIn(outputs, 'schema_id'),
          };
          return { toolCalls: [{ name: 'create_prompt', arguments: prompt }] };
        }
        case 2:
          if (!held) {
            // The first run's schema and prompt exist; its server dies while the model thinks.
            held = true;
            return extraction.answer();
          }
          return { toolCalls: [{ name: 'run_extraction', arguments: {} }] };
        default:
          return { text: 'Done.' };
      }
    });
    const { target, drop } = await createTestDatabaseTarget({ dataDir: join(dir, 'data-auto-create') });
    const env = fakeProviderEnv(target, fake.baseUrl, { DOCAGENT_JOB_HEARTBEAT_SECONDS: '10' });
    const first = await startServer(env);
    const access = firstStartAccess(first);
    try {
      const res = await fetch(`${access.base}/documents`, {
        method: 'POST',
        headers: access.headers,
        body: JSON.stringify({
          documents: [
            {
              name: 'invoice.txt',
              content: Buffer.from('INVOICE 2024-117\nTotal due: 1,250.00 EUR').toString('base64'),
              auto_create: true,
            },
          ],
        }),
      });
      assert.equal(res.status, 200, await res.clone().text());
      const id = ((await res.json()) as { documents: Array<{ document_id: string }> }).documents[0]!.document_id;
      await extraction.arrived;
      await kill(first);

      const second = await startServer(env);
      const restarted = { ...access, base: access.base.replace(first.url, second.url) };
      try {
        const deadline = Date.now() + 240_000;
        let doc: { auto_create_status?: string; auto_create_error?: string } = {};
        while (doc.auto_create_status !== 'proposed') {
          assert.notEqual(doc.auto_create_status, 'failed', doc.auto_create_error);
          assert.ok(Date.now() < deadline, `auto-create is still ${doc.auto_create_status}`);
          await new Promise((r) => setTimeout(r, 100));
          const res = await fetch(`${restarted.base}/documents/${id}?include_content=false`, { headers: access.headers });
          doc = (await res.json()) as typeof doc;
        }
        const named = async (kind: 'schemas' | 'prompts', name: string) => {
          const list = (await (await fetch(`${restarted.base}/${kind}?limit=100`, { headers: access.headers })).json()) as Record<
            string,
            Array<{ name: string }>
          >;
          return (list[kind] ?? []).filter((item) => item.name === name).length;
        };
        assert.equal(await named('schemas', 'Invoice restart'), 1, 'one schema, not one per attempt');
        assert.equal(await named('prompts', 'Invoice fields restart'), 1, 'one prompt, not one per attempt');
      } finally {
        await second.stop();
      }
    } finally {
      extraction.release();
      await kill(first);
      await fake.close();
      await drop();
    }
  });

  // The timeout turns a regression (a follower waiting for ever on a dead turn) into a failure, not a hang.
  test(`a turn whose server was killed ends failed after a restart; its stream ends and its thread keeps the finished steps (${testDatabaseKind()})`, {
    timeout: 240_000,
  }, async () => {
    const fake = await startFakeLlm();
    const secondStep = heldReply({ text: 'never sent' });
    fake.setHandler(async (request): Promise<FakeReply> => {
      if (!request.body?.tools) return { text: JSON.stringify({ summary: 'x' }) };
      // A finished step (a read-only call that runs and is saved), then the server dies in the next.
      return outputsOfTurn(request).length === 0 ? { toolCalls: [{ name: 'get_ocr_text', arguments: {} }] } : secondStep.answer();
    });
    const { target, drop } = await createTestDatabaseTarget({ dataDir: join(dir, 'data-turn') });
    const env = fakeProviderEnv(target, fake.baseUrl, { DOCAGENT_TURN_HEARTBEAT_SECONDS: '2' });
    const first = await startServer(env);
    const access = firstStartAccess(first);
    try {
      const id = await upload(access, 'invoice.txt', Buffer.from('INVOICE 2024-117\nTotal due: 1,250.00 EUR'));
      await waitForState(access, id, ['llm_completed', 'llm_failed']);
      const chat = `${access.base}/documents/${id}/chat`;
      const thread = (await (await fetch(`${chat}/threads`, { method: 'POST', headers: access.headers, body: '{}' })).json()) as {
        thread_id: string;
      };
      const turn = await fetch(chat, {
        method: 'POST',
        headers: access.headers,
        body: JSON.stringify({ messages: [{ role: 'user', content: 'read it' }], thread_id: thread.thread_id, stream: true }),
      });
      const reader = turn.body!.getReader();
      const firstFrame = new TextDecoder().decode((await reader.read()).value);
      const turnId = /"turn_id":"(\w+)"/.exec(firstFrame)?.[1];
      assert.ok(turnId, firstFrame);
      await secondStep.arrived;
      await kill(first);
      await reader.cancel().catch(() => {});

      const second = await startServer(env);
      const restarted = { ...access, base: access.base.replace(first.url, second.url) };
      const chatAgain = `${restarted.base}/documents/${id}/chat`;
      try {
        // Following the turn replays its frames and ends with an error once the turn is found dead.
        const followed = await (await fetch(`${chatAgain}/turns/${turnId}/stream`, { headers: access.headers })).text();
        const frames = [...followed.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as { type: string; error?: string });
        assert.equal(frames[0]?.type, 'turn_started');
        assert.equal(frames.at(-1)?.type, 'error');
        assert.match(frames.at(-1)?.error ?? '', /server running this turn stopped/);

        const stop = await fetch(`${chatAgain}/stop`, {
          method: 'POST',
          headers: access.headers,
          body: JSON.stringify({ turn_id: turnId }),
        });
        const stopped = (await stop.json()) as { status: string; detail: string };
        assert.equal(stopped.status, 'failed');
        assert.match(stopped.detail, /server running this turn stopped/);

        const kept = (await (await fetch(`${chatAgain}/threads/${thread.thread_id}`, { headers: access.headers })).json()) as {
          messages: Array<{ role: string }>;
        };
        assert.deepEqual(
          kept.messages.map((m) => m.role),
          ['user', 'assistant', 'tool'],
        );
        const runs = (await (await fetch(`${restarted.base}/agent/runs`, { headers: access.headers })).json()) as {
          runs: Array<{ turn_id: string; status: string; tool_calls: unknown[] }>;
        };
        const record = runs.runs.find((r) => r.turn_id === turnId);
        assert.equal(record?.status, 'failed');
        assert.equal(record?.tool_calls.length, 1);

        // The thread is free again.
        fake.setHandler(() => ({ text: 'Back.' }));
        const next = await fetch(chatAgain, {
          method: 'POST',
          headers: access.headers,
          body: JSON.stringify({ messages: [{ role: 'user', content: 'again' }], thread_id: thread.thread_id }),
        });
        assert.equal(next.status, 200, await next.clone().text());
      } finally {
        await second.stop();
      }
    } finally {
      secondStep.release();
      await kill(first);
      await fake.close();
      await drop();
    }
  });
});
