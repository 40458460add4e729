import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { envFor, startServer } from './processes.ts';

test(`a refused multipart upload does not hold the server open at shutdown (${testDatabaseKind()})`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-upload-'));
  const { target, drop } = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  const server = await startServer({ ...envFor(target), MAX_UPLOAD_MB: '1', DOCAGENT_WORKERS: '0' });
  try {
    const orgId = /Organization:\s+.*\((\w+)\)/.exec(server.output())?.[1];
    const token = /API token:\s+(\S+)/.exec(server.output())?.[1];
    const form = new FormData();
    form.append('files', new Blob([Buffer.alloc(5 * 1024 * 1024, 'a')]), 'big.txt');
    const res = await fetch(`${server.url}/v0/orgs/${orgId}/documents/multipart`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    assert.equal(res.status, 413);
    assert.match(((await res.json()) as { detail: string }).detail, /"big.txt" is larger than the limit of 1 MB per file/);
    assert.equal(res.headers.get('connection'), 'close');
    assert.equal(await server.stop(), 0, `a clean exit, not the forced one:\n${server.output()}`);
  } finally {
    await server.stop();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
