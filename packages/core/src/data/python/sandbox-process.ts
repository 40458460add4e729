import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import type { SandboxExit } from './sandbox-outcome.ts';

/** The kernel does not apply RLIMIT_NPROC to root: a fork bomb run as root would not stop. */
const NOBODY = 65534;
const PRINTED_TAIL_CHARS = 4000;

export interface SandboxProcess {
  args: string[];
  /** Descriptors handed to bwrap as its fds 4, 5...: the files it copies into the sandbox. */
  files: number[];
  /** The job for sandbox_main.py, written on its stdin. */
  input: string;
  timeoutMs: number;
  maxPrintBytes: number;
  maxResultBytes: number;
}

/**
 * Runs bwrap once and observes how it ends. The result comes on fd 3, a pipe of its own, so
 * that nothing the program prints can be taken for it. Past the time limit, or when the
 * program prints or answers more than allowed, bwrap is killed with SIGKILL (which nothing
 * inside can delay); the program follows it, by --die-with-parent and because the end of a
 * PID namespace's first process ends every process in it.
 */
export function runSandboxProcess(run: SandboxProcess): Promise<SandboxExit> {
  return new Promise((resolve, reject) => {
    const child = spawn('bwrap', run.args, {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe', ...run.files],
      // Its own process group, for the kill below.
      detached: true,
      cwd: '/',
      // bwrap's own process stays visible inside (as PID 1's /proc/1/environ): give it nothing of ours.
      env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
      // bwrap then makes its own user namespace as that user, where the process limit holds.
      ...(process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stoppedFor: SandboxExit['stoppedFor'] = null;
    const stop = (why: NonNullable<SandboxExit['stoppedFor']>) => {
      stoppedFor ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone: its 'close' is on the way.
      }
    };
    const timer = setTimeout(() => stop('time'), run.timeoutMs);

    let printedBytes = 0;
    let printedTail = '';
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        printedBytes += Buffer.byteLength(text);
        printedTail = (printedTail + text).slice(-PRINTED_TAIL_CHARS);
        if (printedBytes > run.maxPrintBytes) stop('print');
      });
    }
    const document: Buffer[] = [];
    let documentBytes = 0;
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      documentBytes += chunk.length;
      if (documentBytes > run.maxResultBytes) stop('result');
      else document.push(chunk);
    });
    // It may end before reading its job (bwrap failing to start); its exit status says why.
    child.stdin!.on('error', () => {});
    child.stdin!.end(run.input);

    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal === null ? null : 128 + constants.signals[signal]),
        stoppedFor,
        document: Buffer.concat(document).toString('utf8'),
        printedTail,
      });
    });
  });
}
