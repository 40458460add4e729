import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  createApiToken,
  createOrganization,
  createTag,
  createUser,
  migrateDatabase,
  openDatabase,
  setMembership,
} from '@docagent/core';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { DOCAGENT_ARGS, envFor, runCli, type ServerProcess, startServer } from './processes.ts';

/**
 * A real MCP client no one here wrote, the MCP inspector's CLI from npm, lists and calls the tools
 * over stdio (`docagent mcp`, on the local database and in front of a running server) and over
 * streamable HTTP (`/mcp`).
 */

const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'index.js',
);

const dir = mkdtempSync(join(tmpdir(), 'docagent-mcp-'));
let target: Awaited<ReturnType<typeof createTestDatabaseTarget>>;
let env: NodeJS.ProcessEnv;
let token: string;

interface Inspected {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the inspector's CLI once and gives back what it printed. */
async function inspect(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Inspected> {
  const child = spawn(process.execPath, [INSPECTOR, ...args], {
    // It finds its own package.json (its client name) relative to the working directory.
    cwd: dirname(INSPECTOR),
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

const parsed = <T>(run: Inspected): T => {
  assert.equal(run.code, 0, `the inspector failed:\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(run.stdout) as T;
};

type Listed = { tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> };
type Called = { content: Array<{ type: string; text: string }>; isError?: boolean };

function assertListed(listed: Listed): void {
  const names = listed.tools.map((t) => t.name);
  for (const name of ['list_documents', 'get_ocr_text', 'create_schema', 'upload_document', 'execute_sql', 'create_note']) {
    assert.ok(names.includes(name), `${name} is listed`);
  }
  assert.equal(listed.tools.find((t) => t.name === 'list_tags')?.annotations?.readOnlyHint, true);
}

function assertTagsRead(called: Called): void {
  assert.equal(called.isError, undefined, called.content[0]?.text);
  assert.match(called.content[0]?.text ?? '', /"Invoices"/);
}

const stdioTarget = [process.execPath, ...DOCAGENT_ARGS, 'mcp'];
const callListTags = ['--method', 'tools/call', '--tool-name', 'list_tags', '--tool-arg', 'limit=5'];

before(async () => {
  target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  env = { ...envFor(target.target), LOG_LEVEL: 'warn', DOCAGENT_WORKERS: '0' };
  const database = await openDatabase(target.target, 'test');
  try {
    await migrateDatabase(database);
    const user = await createUser(database.db, { email: 'ops@example.test', password: 'correct horse battery' });
    const org = await createOrganization(database.db, { name: 'Acme' });
    await setMembership(database.db, { orgId: org.id, userId: user.id, role: 'admin' });
    token = (await createApiToken(database.db, { orgId: org.id, name: 'mcp', createdBy: user.id })).token;
    await createTag(database.db, org.id, { name: 'Invoices' });
  } finally {
    await database.close();
  }
});
after(async () => {
  await target.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe(`the MCP inspector CLI against docagent on ${testDatabaseKind()}`, () => {
  test('stdio, on the local database: tools/list and tools/call', async () => {
    const withToken = { DOCAGENT_TOKEN: token };
    assertListed(parsed<Listed>(await inspect([...stdioTarget, '--method', 'tools/list'], withToken)));
    assertTagsRead(parsed<Called>(await inspect([...stdioTarget, ...callListTags], withToken)));
  });

  test('docagent mcp without a token says what to set', async () => {
    const run = await runCli(['mcp'], { ...env, DOCAGENT_TOKEN: '' });
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '', 'stdout is the protocol: nothing else is written there');
    assert.match(run.stderr, /docagent mcp needs DOCAGENT_TOKEN/);
  });

  describe('with a server running', () => {
    let server: ServerProcess;
    before(async () => {
      // The server's "ready" lines are at info.
      server = await startServer({ ...env, LOG_LEVEL: 'info' });
    });
    after(async () => {
      await server.stop();
    });

    test('streamable HTTP at /mcp with the Bearer token: tools/list and tools/call', async () => {
      const http = [`${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
      assertListed(parsed<Listed>(await inspect([...http, '--method', 'tools/list'])));
      assertTagsRead(parsed<Called>(await inspect([...http, ...callListTags])));
    });

    test('stdio in front of the running server (DOCAGENT_URL): tools/list and tools/call', async () => {
      const remote = { DOCAGENT_TOKEN: token, DOCAGENT_URL: server.url };
      assertListed(parsed<Listed>(await inspect([...stdioTarget, '--method', 'tools/list'], remote)));
      assertTagsRead(parsed<Called>(await inspect([...stdioTarget, ...callListTags], remote)));
    });

    test('stdio on the embedded database the server holds (no DOCAGENT_URL): through that server', {
      skip: testDatabaseKind() !== 'pglite',
    }, async () => {
      const local = { DOCAGENT_TOKEN: token };
      assertListed(parsed<Listed>(await inspect([...stdioTarget, '--method', 'tools/list'], local)));
      assertTagsRead(parsed<Called>(await inspect([...stdioTarget, ...callListTags], local)));
    });

    test('a revoked or unknown token is refused with the reason', async () => {
      const run = await inspect([...stdioTarget, '--method', 'tools/list'], {
        DOCAGENT_TOKEN: 'da_not_a_token',
        DOCAGENT_URL: server.url,
      });
      assert.notEqual(run.code, 0);
      assert.match(run.stdout + run.stderr, /Invalid credentials/);
    });
  });
});
