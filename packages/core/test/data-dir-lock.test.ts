import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { acquireDataDirLock } from '../src/db/data-dir-lock.ts';

const dir = mkdtempSync(join(tmpdir(), 'docagent-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a second holder is refused with who holds the data dir and what to do', () => {
  const lock = acquireDataDirLock(dir, 'server');
  assert.throws(() => acquireDataDirLock(dir, 'admin command'), /in use by a docagent server \(pid \d+.*DATABASE_URL/s);
  lock.release();
  acquireDataDirLock(dir, 'admin command').release();
});

test('a lock left by a dead process on this host is taken over', () => {
  // Far above any pid this kernel hands out, so no such process exists.
  writeFileSync(
    join(dir, 'docagent.lock'),
    JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), holder: 'server', since: '' }),
  );
  acquireDataDirLock(dir, 'server').release();
});
