import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildSampleCorpus, type Sample } from '@docagent/core/sample-corpus';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { PDFDocument } from 'pdf-lib';
import { envFor, runCli, type ServerProcess, startServer } from './processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'docagent-recovery-'));
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

const kill = async (server: ServerProcess) => {
  server.child.kill('SIGKILL');
  if (server.child.exitCode === null && server.child.signalCode === null) await new Promise((r) => server.child.once('exit', r));
};

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
