import type { DataQueryMode, DataRunError, DataRunRecord, DataRunStatus } from '@docagent/core';

/** Seed 004's chat answer: the assistant's message and the last execution of the turn. */

export interface DatasetChatResult {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number;
  /** null when the run gave no result (it failed or was refused). */
  exec_time_ms: number | null;
  truncated: 'rows' | 'bytes' | null;
  error: DataRunError | null;
}

export interface DatasetChatDetails {
  dataset_id: string;
  query_mode: DataQueryMode;
  plan_json: Record<string, unknown> | null;
  compiled_sql: string | null;
  python_code: string | null;
}

export interface DatasetChatBody {
  assistant_message: string;
  /** The turn's last execution; null (with result and details) when it ran none. */
  run_id: string | null;
  thread_id: string;
  /** The engine's turn (for POST .../agent/chat/stop, or to answer its question); null on the fast path. */
  turn_id: string | null;
  /** The last execution's status; `succeeded` when none ran; `needs_input` when the turn asks a question. */
  status: DataRunStatus | 'needs_input';
  result: DatasetChatResult | null;
  details: DatasetChatDetails | null;
  /** Set when the turn waits for an answer: send it with POST .../agent/chat/approve {turn_id, input}. */
  input_request?: { call_id: string; question: string };
  /** Set when the turn ended without its answer: stopped by the person, or at max_steps. */
  stopped?: 'user' | 'max_steps';
}

/** What the body says of the run (or of none). */
export function runFields(run: DataRunRecord | null): Pick<DatasetChatBody, 'run_id' | 'status' | 'result' | 'details'> {
  if (!run) return { run_id: null, status: 'succeeded', result: null, details: null };
  return {
    run_id: run.id,
    status: run.status,
    result: {
      columns: run.result?.columns ?? [],
      rows: run.result?.rows ?? [],
      row_count: run.result?.row_count ?? 0,
      exec_time_ms: run.result?.exec_time_ms ?? null,
      truncated: run.result?.truncated ?? null,
      error: run.error,
    },
    details: {
      dataset_id: run.datasetId,
      query_mode: run.queryMode,
      plan_json: run.planJson,
      compiled_sql: run.compiledSql,
      python_code: run.pythonCode,
    },
  };
}
