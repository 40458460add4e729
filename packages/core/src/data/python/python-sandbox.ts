import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_LIMITS,
  ExecutionFailure,
  type ExecutionLimits,
  type PythonExecutor,
  type QueryResult,
  type TableFile,
} from '../executors.ts';
import { sandboxArguments } from './sandbox-command.ts';
import { type SandboxCaps, sandboxOutcome } from './sandbox-outcome.ts';
import { runSandboxProcess } from './sandbox-process.ts';

const WRAPPER_PATH = fileURLToPath(new URL('./sandbox_main.py', import.meta.url));
/** Table names become file names and Python variables. */
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;
/** Room in the result pipe beyond the rows' own cap: column list, JSON framing, an error message. */
const RESULT_OVERHEAD_BYTES = 2 ** 20;

export interface PythonSandboxOptions {
  /** Address space of the Python process (RLIMIT_AS); default 2 GiB, of which pandas and numpy take ~150 MB. */
  memoryBytes?: number;
  /** Processes and threads the program may have at once (RLIMIT_NPROC); default 32. */
  maxProcesses?: number;
  /** Size of the private /tmp, and of any file written there (RLIMIT_FSIZE); default 64 MiB. */
  tmpBytes?: number;
  /** What the program may print, stdout and stderr together, before it is stopped; default 1 MiB. */
  maxPrintBytes?: number;
}

/**
 * Runs the analyst's Python (code from an LLM: hostile until proven otherwise) in bubblewrap,
 * one sandbox per run: each table a pandas DataFrame named after it, `result_df` the answer.
 * What it may do is set in three places: the sandbox's namespaces (sandbox-command.ts: no
 * network, read-only system, only the given files), the wrapper's rlimits (CPU seconds, address
 * space, processes, file size), and this process (wall clock, printed bytes, result bytes).
 * `timeoutMs` counts from the start of the sandbox (0.2 to 0.5 s to start it and import pandas) to its end.
 */
export class PythonSandbox implements PythonExecutor {
  readonly #options: Required<PythonSandboxOptions>;
  #availability: Promise<string | null> | undefined;

  constructor(options: PythonSandboxOptions = {}) {
    this.#options = { memoryBytes: 2 * 2 ** 30, maxProcesses: 32, tmpBytes: 64 * 2 ** 20, maxPrintBytes: 2 ** 20, ...options };
  }

  /** Checked once, by running a real sandbox that imports pandas: it fails the way a run would. */
  unavailableReason(): Promise<string | null> {
    this.#availability ??= this.#execute('import pandas\nresult_df = pandas.__version__', [], DEFAULT_LIMITS).then(
      () => null,
      (error: unknown) => {
        // A run stopped by a limit says the machine was busy, not that it lacks anything: ask again next time.
        if (error instanceof ExecutionFailure && error.kind === 'limit') this.#availability = undefined;
        return unavailableMessage(error);
      },
    );
    return this.#availability;
  }

  async run(code: string, tables: TableFile[], limits: Partial<ExecutionLimits> = {}): Promise<QueryResult> {
    const reason = await this.unavailableReason();
    if (reason !== null) throw new ExecutionFailure('disabled', reason);
    const names = new Set<string>();
    for (const { name } of tables) {
      if (!TABLE_NAME.test(name) || names.has(name)) {
        throw new ExecutionFailure(
          'error',
          `The table name "${name}" is not a unique lower-case identifier; rename the table in its dataset (letters, digits and _).`,
        );
      }
      names.add(name);
    }
    // Field by field: a caller passing { maxRows: undefined } means the default, not no cap.
    return this.#execute(code, tables, {
      maxRows: limits.maxRows ?? DEFAULT_LIMITS.maxRows,
      maxOutputBytes: limits.maxOutputBytes ?? DEFAULT_LIMITS.maxOutputBytes,
      timeoutMs: limits.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
    });
  }

  async #execute(code: string, tables: TableFile[], limits: ExecutionLimits): Promise<QueryResult> {
    const started = performance.now();
    const caps: SandboxCaps = {
      timeoutMs: limits.timeoutMs,
      cpuSeconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)),
      maxPrintBytes: this.#options.maxPrintBytes,
      maxResultBytes: limits.maxOutputBytes + RESULT_OVERHEAD_BYTES,
    };
    const job = {
      code,
      tables: tables.map(({ name, columns }) => ({ name, columns })),
      max_rows: limits.maxRows,
      max_output_bytes: limits.maxOutputBytes,
      limits: {
        cpu_seconds: caps.cpuSeconds,
        memory_bytes: this.#options.memoryBytes,
        processes: this.#options.maxProcesses,
        file_bytes: this.#options.tmpBytes,
      },
    };
    const files = openFiles(tables);
    try {
      // bwrap numbers its inherited descriptors from 4: 0-2 are stdio, 3 the result pipe.
      const args = sandboxArguments({
        wrapperFd: 4,
        tables: tables.map((table, i) => ({ name: table.name, fd: 5 + i })),
        tmpBytes: this.#options.tmpBytes,
      });
      const exit = await runSandboxProcess({ args, files, input: JSON.stringify(job), ...caps });
      return { ...sandboxOutcome(exit, caps), exec_time_ms: Math.round(performance.now() - started) };
    } finally {
      for (const fd of files) closeSync(fd);
    }
  }
}

/** The wrapper script, then each table's CSV, opened here: the sandbox's user may not be allowed to. */
function openFiles(tables: TableFile[]): number[] {
  const opened: number[] = [];
  try {
    opened.push(openSync(WRAPPER_PATH, 'r'));
    for (const table of tables) {
      try {
        opened.push(openSync(table.csvPath, 'r'));
      } catch (error) {
        throw new ExecutionFailure(
          'error',
          `The file of table ${table.name} could not be opened (${(error as NodeJS.ErrnoException).code}); add the table to its dataset again.`,
        );
      }
    }
    return opened;
  } catch (error) {
    for (const fd of opened) closeSync(fd);
    throw error;
  }
}

function unavailableMessage(error: unknown): string {
  const detail =
    (error as NodeJS.ErrnoException).syscall === 'spawn bwrap'
      ? 'the bwrap command is not installed'
      : `a test run in the sandbox failed: ${(error instanceof Error ? error.message : String(error)).trim().split('\n').at(-1)}`;
  return `Python analysis is not available on this server (${detail}). Install bubblewrap and pandas for Debian's python3 (apt-get install bubblewrap python3-pandas); in a container, the container must also allow user namespaces. Then restart the server.`;
}
