import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_LIMITS,
  ExecutionFailure,
  type ExecutionLimits,
  type QueryResult,
  type SqlExecutor,
  type SqlParameter,
  type TableFile,
} from '../executors.ts';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from './duckdb-sandbox.ts';
import type { SqlWorkerMessage, SqlWorkerRequest } from './duckdb-worker-protocol.ts';

const WORKER_PATH = fileURLToPath(new URL('./duckdb-worker.ts', import.meta.url));

export interface SqlRunnerOptions {
  /** Threads and memory of one query (default 2 threads, 1GB). */
  engine?: Partial<EngineSettings>;
  /** A child process with no query for this long is ended; the next query starts another (default 5 min). */
  idleMs?: number;
  /** How long a new child process may take to load DuckDB (default 30 s). */
  startTimeoutMs?: number;
}

const shutDown = () =>
  new ExecutionFailure('error', 'The SQL engine was shut down (the server is stopping); try again once it is back.');

const seconds = (ms: number) => Math.round((ms / 1000) * 10) / 10;

/** The limits asked for over the defaults; an absent or undefined field keeps its default. */
function limitsFrom(asked: Partial<ExecutionLimits>): ExecutionLimits {
  const given = Object.entries(asked).filter(([, value]) => value !== undefined);
  const limits: ExecutionLimits = { ...DEFAULT_LIMITS, ...Object.fromEntries(given) };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0)
      throw new ExecutionFailure('error', `The limit ${name} is ${value}; give a positive number.`);
  }
  return limits;
}

/**
 * Runs SQL for one organization in a child process of its own (duckdb-worker.ts), one query
 * at a time in the order they came. The child is started at the first query, reused, ended
 * when idle, and replaced when a query killed it: past `timeoutMs` it is killed (SIGKILL),
 * whatever DuckDB is doing, and a child that dies on its own (out of memory) fails its query
 * with a limit. Neither can take the server down or leave a caller waiting.
 */
export class DuckDbSqlRunner implements SqlExecutor {
  private readonly engine: EngineSettings;
  private readonly idleMs: number;
  private readonly startTimeoutMs: number;
  private child: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private closed = false;

  constructor(options: SqlRunnerOptions = {}) {
    this.engine = { ...DEFAULT_ENGINE_SETTINGS, ...options.engine };
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
  }

  /** The child process's id while one runs: for monitoring, and for tests that kill it. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  run(
    sql: string,
    tables: TableFile[],
    limits: Partial<ExecutionLimits> = {},
    params: SqlParameter[] = [],
  ): Promise<QueryResult> {
    const job = this.queue.then(() => {
      const { maxRows, maxOutputBytes, timeoutMs } = limitsFrom(limits);
      const query = {
        sql,
        params,
        tables: tables.map(({ name, parquetPath }) => ({ name, parquetPath })),
        maxRows,
        maxOutputBytes,
        engine: this.engine,
      };
      return this.execute({ type: 'run', id: this.nextId++, query }, timeoutMs);
    });
    this.queue = job.catch(() => {});
    return job;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const child = this.child;
    this.detach();
    if (child) await stop(child);
  }

  private async execute(request: SqlWorkerRequest, timeoutMs: number): Promise<QueryResult> {
    if (this.closed) throw shutDown();
    clearTimeout(this.idleTimer);
    const child = await this.started();
    child.ref();
    child.channel?.ref();
    try {
      return await this.exchange(child, request, timeoutMs);
    } finally {
      if (this.child === child) this.idle(child);
    }
  }

  private exchange(child: ChildProcess, request: SqlWorkerRequest, timeoutMs: number): Promise<QueryResult> {
    return new Promise<QueryResult>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        outcome();
      };
      const onMessage = (message: SqlWorkerMessage) => {
        if (message.type === 'result' && message.id === request.id) settle(() => resolve(message.result));
        if (message.type === 'failed' && message.id === request.id)
          settle(() => reject(new ExecutionFailure(message.kind, message.message)));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        settle(() =>
          reject(
            this.closed
              ? shutDown()
              : new ExecutionFailure(
                  'limit',
                  `The SQL engine stopped while running the query (${signal ?? `exit code ${code}`}), most likely out of memory; filter or aggregate earlier, select fewer columns, or add a LIMIT.`,
                ),
          ),
        );
      const timer = setTimeout(() => {
        this.detach();
        child.kill('SIGKILL');
        settle(() =>
          reject(
            new ExecutionFailure(
              'limit',
              `The query ran longer than ${seconds(timeoutMs)} s and was stopped; filter or aggregate earlier, add a LIMIT, and join tables on a condition (not a cross join) or end a recursive CTE.`,
            ),
          ),
        );
      }, timeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
      const undelivered = (error: Error) =>
        settle(() =>
          reject(new ExecutionFailure('error', `The query could not be handed to the SQL engine (${error.message}); try again.`)),
        );
      try {
        child.send(request, (error) => error && undelivered(error));
      } catch (error) {
        undelivered(error as Error);
      }
    });
  }

  /** The running child, or a new one once it has loaded DuckDB. */
  private started(): Promise<ChildProcess> {
    this.ready ??= this.start();
    return this.ready;
  }

  private start(): Promise<ChildProcess> {
    // An empty environment: the server's holds secrets (API keys, database URLs) that DuckDB
    // has no use for. Its own flags (a test runner's, an inspector's) are not passed on either.
    const env = process.env.TZ ? { TZ: process.env.TZ } : {};
    const child = fork(WORKER_PATH, [], { execArgv: [], env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    // A child that fails to spawn or to be killed must not become an uncaught 'error' event.
    child.on('error', () => {
      if (this.child === child) this.detach();
    });
    child.once('exit', () => {
      if (this.child === child) this.detach();
    });
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        outcome();
      };
      const onMessage = (message: SqlWorkerMessage) => {
        if (message.type === 'ready') settle(() => resolve(child));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        settle(() =>
          reject(
            new ExecutionFailure(
              'error',
              `The SQL engine could not start (${signal ?? `exit code ${code}`}); check the server's log and that @duckdb/node-api is installed, then try again.`,
            ),
          ),
        );
      const timer = setTimeout(() => {
        this.detach();
        child.kill('SIGKILL');
        settle(() =>
          reject(
            new ExecutionFailure('error', `The SQL engine did not start within ${seconds(this.startTimeoutMs)} s; try again.`),
          ),
        );
      }, this.startTimeoutMs);
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
    // A failed start is forgotten so that the next query tries again.
    ready.catch(() => {
      if (this.child === child) this.detach();
    });
    return ready;
  }

  /** Between queries the child neither keeps the server's event loop alive nor lives past idleMs. */
  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
    this.idleTimer = setTimeout(() => {
      if (this.child !== child) return;
      this.detach();
      void stop(child);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private detach(): void {
    this.child = undefined;
    this.ready = undefined;
  }
}

/** Ends a child and waits until it is gone: politely first, then SIGKILL if it lingers. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
