import type { ExecutionFailureKind, QueryResult } from '../executors.ts';
import type { SandboxedQuery } from './duckdb-query.ts';

/** Messages between the server and its SQL child process (one query at a time). */

export type SqlWorkerRequest = { type: 'run'; id: number; query: SandboxedQuery };

export type SqlWorkerMessage =
  /** DuckDB is loaded: the next query's clock can start. */
  | { type: 'ready' }
  | { type: 'result'; id: number; result: QueryResult }
  | { type: 'failed'; id: number; kind: ExecutionFailureKind; message: string };
