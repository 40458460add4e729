/**
 * The contract between the data analyst's parts: datasets hand their tables to an executor as
 * files on local disk, an executor runs one SQL query or one Python program over them and
 * answers a capped, typed result or a refusal. Every execution (agent or direct) goes through
 * one of these two, and is recorded as a DataRun by the caller.
 */

/** One table of a dataset, materialized on local disk by the datasets module. */
export interface TableFile {
  /** The name SQL and Python use: lower-case identifier, unique within the dataset. */
  name: string;
  /** Parquet with the inferred column types: what DuckDB reads. */
  parquetPath: string;
  /** The same rows as RFC 4180 CSV (UTF-8, comma, header row): what pandas reads (no pyarrow on Debian). */
  csvPath: string;
  columns: Array<{ name: string; type: string }>;
}

export interface ExecutionLimits {
  /** Rows returned at most (default 200); the result says when it cut. */
  maxRows: number;
  /** Bytes of JSON-encoded rows at most (default 256 KB). */
  maxOutputBytes: number;
  /** Wall-clock limit; the process running the query is killed past it (default 30 s). */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: ExecutionLimits = { maxRows: 200, maxOutputBytes: 256 * 1024, timeoutMs: 30_000 };

export interface QueryResult {
  columns: Array<{ name: string; type: string }>;
  /** Row-major, JSON values (BigInt as number when safe, else string; dates as ISO strings). */
  rows: unknown[][];
  /** Rows the query produced, also past the cap when known. */
  row_count: number;
  /** Set when rows were cut: by `max_rows` or by `max_output_bytes`. */
  truncated: 'rows' | 'bytes' | null;
  exec_time_ms: number;
}

/**
 * Why an execution did not give a result. `policy`: refused before running (SQL that is not one
 * SELECT, a file-reading function...); `error`: the engine's own message (DuckDB's, Python's
 * traceback) for the model to fix its code; `limit`: killed by a limit (time, memory, output);
 * `disabled`: the feature is not installed here (the message names the Debian packages).
 */
export type ExecutionFailureKind = 'policy' | 'error' | 'limit' | 'disabled';

export class ExecutionFailure extends Error {
  readonly kind: ExecutionFailureKind;

  constructor(kind: ExecutionFailureKind, message: string) {
    super(message);
    this.name = 'ExecutionFailure';
    this.kind = kind;
  }

  /** The code tools and routes answer with: seed 004's names. */
  get code(): 'SQL_POLICY_VIOLATION' | 'EXECUTION_ERROR' | 'LIMIT_EXCEEDED' | 'FEATURE_DISABLED' {
    return (
      { policy: 'SQL_POLICY_VIOLATION', error: 'EXECUTION_ERROR', limit: 'LIMIT_EXCEEDED', disabled: 'FEATURE_DISABLED' } as const
    )[this.kind];
  }
}

/** A value bound to a `$1`, `$2`... placeholder of a query (query plans bind their values this way). */
export type SqlParameter = string | number | boolean | null;

/** Runs one SQL SELECT over the tables; throws ExecutionFailure. One runner per organization. */
export interface SqlExecutor {
  run(sql: string, tables: TableFile[], limits?: Partial<ExecutionLimits>, params?: SqlParameter[]): Promise<QueryResult>;
  close(): Promise<void>;
}

/** Runs a Python program with each table as a pandas DataFrame; its `result_df` is the result. */
export interface PythonExecutor {
  /** null when available, else the message saying what to install. */
  unavailableReason(): Promise<string | null>;
  run(code: string, tables: TableFile[], limits?: Partial<ExecutionLimits>): Promise<QueryResult>;
}
