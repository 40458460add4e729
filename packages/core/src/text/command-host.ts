import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CommandHostMessage, CommandHostRequest } from './command-host-protocol.ts';

const HOST_PATH = fileURLToPath(new URL('./command-host-process.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

export interface CommandExit {
  code: number | null;
  /** The last characters the command wrote to stderr. */
  stderr: string;
}

export interface CommandOptions {
  /** Written to the command's stdin. */
  input: Uint8Array;
  /** Variables the command needs besides PATH, which it always gets (the server's). */
  env?: Record<string, string>;
  /** Kills the command (SIGKILL); the run then ends as the command does. */
  signal: AbortSignal;
  onOutput: (chunk: Uint8Array) => void;
}

interface Pending {
  onOutput: (chunk: Uint8Array) => void;
  resolve: (exit: CommandExit) => void;
  reject: (error: Error) => void;
}

/**
 * Runs commands (no shell) from a small process of its own, started at the first command. Node's
 * spawn forks the calling process, and the fork's cost grows with it: 1 ms from a 40 MB process,
 * 5 ms from one of 450 MB, during which the server's event loop stands still, for every PDF
 * (pdftotext, and pdfinfo where a page may be turned) and every page OCR'd. From the host, a
 * command costs the server one message each way. A command's environment is PATH and what its caller names: the
 * server's holds secrets no command needs.
 */
export class CommandHost {
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  /** The host once it has said it is ready: a command is then sent at once, not a microtask later. */
  private running: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** The host's process id, once it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async run(command: string, args: string[], options: CommandOptions): Promise<CommandExit> {
    // Sent before `run` returns, so the caller's next synchronous work overlaps the command.
    const child = this.running ?? (await this.started());
    const id = this.nextId++;
    const kill = () => this.send(child, { type: 'kill', id });
    return new Promise<CommandExit>((resolve, reject) => {
      const settled =
        <T>(settle: (value: T) => void) =>
        (value: T) => {
          options.signal.removeEventListener('abort', kill);
          this.pending.delete(id);
          this.keepAlive(child);
          settle(value);
        };
      this.pending.set(id, { onOutput: options.onOutput, resolve: settled(resolve), reject: settled(reject) });
      this.keepAlive(child);
      this.send(child, {
        type: 'run',
        id,
        command,
        args,
        input: options.input,
        path: process.env.PATH ?? '',
        env: options.env ?? {},
      });
      if (options.signal.aborted) kill();
      else options.signal.addEventListener('abort', kill, { once: true });
    });
  }

  /** Ends the host; commands still running fail. */
  close(): void {
    this.child?.kill('SIGKILL');
  }

  private send(child: ChildProcess, request: CommandHostRequest): void {
    try {
      child.send(request, (error) => error && this.lost(child, error.message));
    } catch (error) {
      this.lost(child, (error as Error).message);
    }
  }

  /** While a command runs the host keeps the caller's process alive; between commands it does not. */
  private keepAlive(child: ChildProcess): void {
    if (this.pending.size > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  private started(): Promise<ChildProcess> {
    this.ready ??= this.start();
    return this.ready;
  }

  private start(): Promise<ChildProcess> {
    const child = fork(HOST_PATH, [], {
      execArgv: [],
      env: {},
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('error', (error) => this.lost(child, error.message));
    child.once('exit', (code, signal) => this.lost(child, signal ?? `exit code ${code}`));
    child.on('message', (message: CommandHostMessage) => {
      if (message.type === 'output') this.pending.get(message.id)?.onOutput(message.chunk);
      else if (message.type === 'exit') {
        const run = this.pending.get(message.id);
        if (message.error !== undefined) run?.reject(new Error(message.error));
        else run?.resolve({ code: message.code, stderr: message.stderr });
      }
    });
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`The command host did not start within ${START_TIMEOUT_MS / 1000} s; try again.`));
      }, START_TIMEOUT_MS);
      child.once('message', () => {
        clearTimeout(timer);
        this.keepAlive(child);
        if (this.child === child) this.running = child;
        resolve(child);
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('The command host ended as it started; check the server log and try again.'));
      });
    });
    ready.catch(() => {});
    return ready;
  }

  /** The host is gone: its commands fail (a job tries again), and the next command starts another. */
  private lost(child: ChildProcess, why: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    this.ready = undefined;
    this.running = undefined;
    const runs = [...this.pending.values()];
    this.pending.clear();
    for (const run of runs) run.reject(new Error(`The command host ended (${why}) while a command ran; try again.`));
    child.kill('SIGKILL');
  }
}

/** The process's one command host. */
export const commandHost = new CommandHost();
