import { ExecutionFailure, type QueryResult } from '../executors.ts';

/** How a sandbox run ended, as python-sandbox.ts observed it. */
export interface SandboxExit {
  /** bwrap's exit status: the program's, or 128 + the signal that ended it. */
  code: number | null;
  /** Set when Node stopped the run itself. */
  stoppedFor: 'time' | 'print' | 'result' | null;
  /** What the wrapper wrote on its result pipe: one JSON document, or nothing. */
  document: string;
  /** The last part of what the program printed (stdout and stderr together). */
  printedTail: string;
}

export interface SandboxCaps {
  timeoutMs: number;
  cpuSeconds: number;
  maxPrintBytes: number;
  maxResultBytes: number;
}

const EXIT_SIGXCPU = 128 + 24;
const EXIT_SIGKILL = 128 + 9;
const PRINTED_TAIL = 2000;
const TRUNCATIONS = new Set(['rows', 'bytes', null]);

type Rows = Omit<QueryResult, 'exec_time_ms'>;

const megabytes = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;

/** The result of a run, or the ExecutionFailure saying which limit or error ended it and what to do. */
export function sandboxOutcome(exit: SandboxExit, caps: SandboxCaps): Rows {
  if (exit.stoppedFor === 'time') {
    throw new ExecutionFailure(
      'limit',
      `The code ran longer than the ${caps.timeoutMs / 1000} s time limit and was stopped. Make it faster (vectorized pandas operations instead of Python loops, fewer rows) or answer with SQL.`,
    );
  }
  if (exit.stoppedFor === 'print') {
    throw new ExecutionFailure(
      'limit',
      `The code printed more than ${megabytes(caps.maxPrintBytes)} and was stopped. Print less (df.head(), not whole tables) and put the answer in result_df.`,
    );
  }
  if (exit.stoppedFor === 'result') {
    throw new ExecutionFailure(
      'limit',
      `The result was larger than ${megabytes(caps.maxResultBytes)} and was dropped. Return fewer rows or columns in result_df.`,
    );
  }
  if (exit.document !== '') return fromDocument(exit);
  if (exit.code === EXIT_SIGXCPU) {
    throw new ExecutionFailure(
      'limit',
      `The code used more than its ${caps.cpuSeconds} s of CPU time and was stopped. Make it faster (vectorized pandas operations, fewer rows) or answer with SQL.`,
    );
  }
  if (exit.code === EXIT_SIGKILL) {
    throw new ExecutionFailure(
      'limit',
      'The Python process was killed (SIGKILL): the machine ran out of memory, the code went on past its CPU time limit, or it killed itself. Work on fewer rows at a time, or answer with SQL.',
    );
  }
  if (exit.code !== null && exit.code > 128) {
    throw new ExecutionFailure(
      'error',
      `The Python process ended on signal ${exit.code - 128} (a crash in a library, or the code sent it) before its result was written; simplify the code and try again.`,
    );
  }
  if (exit.code === 0) {
    throw new ExecutionFailure(
      'error',
      'The code ended the Python process (os._exit or a signal) before its result was written; let it run to the end with result_df set.',
    );
  }
  throw new ExecutionFailure(
    'error',
    `The Python sandbox ended (exit status ${exit.code}) without a result: ${exit.printedTail.trim().slice(-500) || 'no message'}. If this repeats for simple code, check that bubblewrap and python3-pandas work on the server (apt-get install bubblewrap python3-pandas).`,
  );
}

function fromDocument(exit: SandboxExit): Rows {
  const unreadable = new ExecutionFailure(
    'error',
    'The result the Python sandbox wrote could not be read (the code may have written to its result pipe); do not write to inherited file descriptors, and put the answer in result_df.',
  );
  let document: unknown;
  try {
    document = JSON.parse(exit.document);
  } catch {
    throw unreadable;
  }
  if (!isObject(document)) throw unreadable;
  if (isObject(document.error)) {
    const { kind, message } = document.error;
    if ((kind !== 'error' && kind !== 'limit') || typeof message !== 'string') throw unreadable;
    const printed = exit.printedTail.trim();
    const tail =
      kind === 'error' && printed !== '' ? `\n\nPrinted before the error (last part):\n${printed.slice(-PRINTED_TAIL)}` : '';
    throw new ExecutionFailure(kind, message + tail);
  }
  const ok = document.ok;
  if (!isObject(ok) || !Array.isArray(ok.columns) || !Array.isArray(ok.rows) || typeof ok.row_count !== 'number')
    throw unreadable;
  if (!TRUNCATIONS.has(ok.truncated as string | null)) throw unreadable;
  const columns = ok.columns.filter(
    (c): c is { name: string; type: string } => isObject(c) && typeof c.name === 'string' && typeof c.type === 'string',
  );
  const rows = ok.rows.filter((row): row is unknown[] => Array.isArray(row) && row.length === columns.length);
  if (columns.length !== ok.columns.length || rows.length !== ok.rows.length) throw unreadable;
  return {
    columns: columns.map(({ name, type }) => ({ name, type })),
    rows,
    row_count: ok.row_count,
    truncated: ok.truncated as QueryResult['truncated'],
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
