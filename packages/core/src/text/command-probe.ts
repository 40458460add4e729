import { commandHost } from './command-host.ts';

export interface ProbeResult {
  /** The command was found and exited 0. */
  ok: boolean;
  stdout: string;
}

const PROBE_TIMEOUT_MS = 30_000;
const answers = new Map<string, Promise<ProbeResult>>();

/**
 * Runs `command args` once per process, through the command host, and keeps the answer: whether
 * it ran and exited 0, and what it printed. Not a `spawnSync`: that holds the server's event loop
 * still for the command's whole run (`tesseract --list-langs` about 150 ms, each poppler command
 * about 60 ms), at the first document a server reads. A command that is not installed is a
 * definite "no"; the host failing, or the command being killed, is not: that answer is not kept
 * and the error goes to the caller (a job tries again).
 */
export function probeCommand(command: string, args: string[]): Promise<ProbeResult> {
  const key = JSON.stringify([command, ...args]);
  let answer = answers.get(key);
  if (!answer) {
    answer = runProbe(command, args);
    answers.set(key, answer);
    answer.catch(() => answers.delete(key));
  }
  return answer;
}

async function runProbe(command: string, args: string[]): Promise<ProbeResult> {
  const chunks: Uint8Array[] = [];
  try {
    const exit = await commandHost.run(command, args, {
      input: new Uint8Array(),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      onOutput: (chunk) => chunks.push(chunk),
    });
    // Killed (by the time limit, or from outside): that says nothing of whether it is installed.
    if (exit.code === null) throw new Error(`\`${[command, ...args].join(' ')}\` was stopped before it answered; try again.`);
    return { ok: exit.code === 0, stdout: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    // spawn's own error for a command that is not on PATH (or not executable).
    if (/\b(ENOENT|EACCES)\b/.test((error as Error).message)) return { ok: false, stdout: '' };
    throw error;
  }
}
