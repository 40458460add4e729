import { type ChildProcess, spawn } from 'node:child_process';
import type { CommandHostMessage, CommandHostRequest } from './command-host-protocol.ts';

/**
 * The command host's own process: it starts the commands the server asks for (no shell), writes
 * their input to their stdin and sends back their output as it comes. It is a small process, so
 * starting a command here costs little; in the server, Node's spawn forks the whole server.
 */

const STDERR_TAIL = 500;
/**
 * Output is sent on in pieces of up to this size, or after FLUSH_MS: a pipe hands it over 4 KB at
 * a time, and a message per 4 KB (75 for a 100-page PDF's words) cost the server more than the
 * reading of them. Larger pieces leave more to read after the command ends: the server parsed the
 * last of 64 KB pieces for about 1 ms after a 100-page PDF's pdftotext ended, the last of 16 KB
 * pieces for about 0.4 ms (20 messages instead of 5).
 */
const FLUSH_BYTES = 16 * 1024;
const FLUSH_MS = 10;
const running = new Map<number, ChildProcess>();
const send = (message: CommandHostMessage) => process.send?.(message);

function run({ id, command, args, input, path, env }: Extract<CommandHostRequest, { type: 'run' }>): void {
  let stderr = '';
  let error: string | undefined;
  const child = spawn(command, args, { env: { ...env, PATH: path }, stdio: ['pipe', 'pipe', 'pipe'] });
  running.set(id, child);
  // A command that ends before reading all of its input breaks the pipe; its exit says why.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  let held: Buffer[] = [];
  let heldBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (heldBytes === 0) return;
    const chunk = held.length === 1 ? (held[0] as Buffer) : Buffer.concat(held, heldBytes);
    held = [];
    heldBytes = 0;
    send({ type: 'output', id, chunk });
  };
  child.stdout.on('data', (chunk: Buffer) => {
    held.push(chunk);
    heldBytes += chunk.length;
    if (heldBytes >= FLUSH_BYTES) flush();
    else timer ??= setTimeout(flush, FLUSH_MS);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  child.on('error', (failure) => {
    error = failure.message;
  });
  child.on('close', (code) => {
    flush();
    running.delete(id);
    send({ type: 'exit', id, code, stderr, ...(error !== undefined ? { error } : {}) });
  });
}

process.on('message', (request: CommandHostRequest) => {
  if (request.type === 'run') run(request);
  else running.get(request.id)?.kill('SIGKILL');
});
// The server is gone: so is what it started.
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
send({ type: 'ready' });
