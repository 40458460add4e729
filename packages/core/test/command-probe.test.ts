import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { commandHost } from '../src/text/command-host.ts';
import { probeCommand } from '../src/text/command-probe.ts';
import { fakeCommandOnPath } from './fake-command.ts';

/** Whether a command is installed, asked once per process without holding the event loop. */

after(() => commandHost.close());

test('an installed command that exits 0 is ok, with what it printed; one that fails or is missing is not', async (t) => {
  fakeCommandOnPath(t, 'docagent-probe-ok', '#!/bin/sh\necho "eng"\necho "osd"\n');
  fakeCommandOnPath(t, 'docagent-probe-fails', '#!/bin/sh\necho "no model" >&2\nexit 1\n');
  assert.deepEqual(await probeCommand('docagent-probe-ok', ['--list-langs']), { ok: true, stdout: 'eng\nosd\n' });
  assert.deepEqual(await probeCommand('docagent-probe-fails', ['-v']), { ok: false, stdout: '' });
  assert.deepEqual(await probeCommand('docagent-probe-not-installed', ['-v']), { ok: false, stdout: '' });
});

test('the answer is kept for the process: the command runs once', async (t) => {
  const bin = fakeCommandOnPath(t, 'docagent-probe-counted', '#!/bin/sh\necho run >> "$(dirname "$0")/runs"\n');
  const answers = await Promise.all([probeCommand('docagent-probe-counted', []), probeCommand('docagent-probe-counted', [])]);
  assert.deepEqual(await probeCommand('docagent-probe-counted', []), answers[0]);
  assert.equal(answers[0]?.ok, true);
  assert.equal(readFileSync(join(bin, 'runs'), 'utf8'), 'run\n');
});

test('the event loop goes on while the command runs', async (t) => {
  // The command waits for a file that only this process's event loop writes: a probe that held
  // the loop still (a synchronous spawn) would see it never come and answer "not ok".
  const bin = fakeCommandOnPath(
    t,
    'docagent-probe-waits',
    '#!/bin/sh\nfor i in $(seq 1 200); do [ -e "$(dirname "$0")/go" ] && exit 0; sleep 0.05; done\nexit 1\n',
  );
  const answer = probeCommand('docagent-probe-waits', []);
  await new Promise((resolve) => setImmediate(resolve));
  writeFileSync(join(bin, 'go'), '');
  assert.equal((await answer).ok, true);
});

test('a command killed before it answers is an error, not a "no", and is asked again next time', async (t) => {
  const bin = fakeCommandOnPath(t, 'docagent-probe-killed', '#!/bin/sh\nkill -9 $$\n');
  await assert.rejects(
    probeCommand('docagent-probe-killed', ['-v']),
    /docagent-probe-killed -v` was stopped before it answered; try again/,
  );
  writeFileSync(join(bin, 'docagent-probe-killed'), '#!/bin/sh\necho 1.0\n');
  assert.deepEqual(await probeCommand('docagent-probe-killed', ['-v']), { ok: true, stdout: '1.0\n' });
});
