import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CommandHost } from '../src/text/command-host.ts';
import { envUntilTestEnds } from './fake-command.ts';

/** The command host: commands run from a small process of its own, never forked from the server. */

const host = new CommandHost();
after(() => host.close());

const decoder = new TextDecoder();

async function run(command: string, args: string[], input = '', signal = new AbortController().signal) {
  const chunks: string[] = [];
  const exit = await host.run(command, args, {
    input: new TextEncoder().encode(input),
    signal,
    onOutput: (chunk) => chunks.push(decoder.decode(chunk, { stream: true })),
  });
  return { ...exit, stdout: chunks.join('') };
}

test('a command gets its input on stdin and its output, exit code and the end of stderr come back', async () => {
  assert.deepEqual(await run('sh', ['-c', 'tr a-z A-Z; echo oops >&2; exit 3'], 'hello\n'), {
    code: 3,
    stderr: 'oops\n',
    stdout: 'HELLO\n',
  });
});

test('output comes back whole and in order, and a little of it before the command ends', async () => {
  const pieces: number[] = [];
  const exit = await host.run('seq', ['1', '100000'], {
    input: new Uint8Array(),
    signal: new AbortController().signal,
    onOutput: (chunk) => pieces.push(chunk.length),
  });
  assert.equal(exit.code, 0);
  const expected = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('');
  assert.equal(
    pieces.reduce((a, b) => a + b, 0),
    expected.length,
  );
  assert.equal((await run('seq', ['1', '100000'])).stdout, expected);
  // A command that prints a line and waits is killed on seeing it: its output was not held until it ended.
  const stop = new AbortController();
  const seen: string[] = [];
  // `exec`: the kill reaches the process holding the pipe (a sleep forked by the shell kept it open for its 30 s).
  const waiting = await host.run('sh', ['-c', 'echo ready; exec sleep 30'], {
    input: new Uint8Array(),
    signal: stop.signal,
    onOutput: (chunk) => {
      seen.push(decoder.decode(chunk));
      stop.abort();
    },
  });
  assert.deepEqual(seen, ['ready\n']);
  assert.equal(waiting.code, null, 'killed by the signal, so the line came while it ran');
});

test("a command sees the server's PATH and nothing else of its environment (no API keys)", async (t) => {
  envUntilTestEnds(t, 'OPENAI_API_KEY', 'sk-secret');
  const { stdout } = await run('sh', ['-c', 'echo "key=$OPENAI_API_KEY path=$PATH"']);
  assert.equal(stdout, `key= path=${process.env.PATH}\n`);
});

test('the signal kills the command; a command that does not exist fails with the reason', async () => {
  const stop = new AbortController();
  const running = run('sleep', ['30'], '', stop.signal);
  setTimeout(() => stop.abort(), 50);
  assert.deepEqual(await running, { code: null, stderr: '', stdout: '' });
  await assert.rejects(run('no-such-command-here', []), /ENOENT/);
});

test('a host that dies fails the commands it ran, and the next command starts a new one', async () => {
  const running = run('sleep', ['30']);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const first = host.pid;
  assert.ok(first);
  process.kill(first, 'SIGKILL');
  await assert.rejects(running, /The command host ended \(SIGKILL\) while a command ran; try again/);
  assert.equal((await run('echo', ['again'])).stdout, 'again\n');
  assert.notEqual(host.pid, first);
});
