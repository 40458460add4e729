import {
  type DataQuery,
  type DataRunRecord,
  type DataRunServices,
  DEFAULT_LIMITS,
  DomainError,
  invalidInput,
  projectDatasetId,
  runDataQuery,
} from '@docagent/core';
import { z } from 'zod';
import type { Subject } from '../../engine/pack.ts';
import type { ToolContext, ToolServices } from '../../tools/tool.ts';

/** Helpers shared by the tools of the data pack. */

/** The data pack's slice of the working state: the run its tools made last. */
export interface DataWorkingState {
  last_run_id?: string;
}

export const DATA_STATE_KEYS = ['last_run_id'] as const;

/** How many rows a tool returns unless asked: enough to answer, little enough for a small model's context. */
export const DEFAULT_TOOL_ROWS = 50;

export function dataServicesOf(services: ToolServices): DataRunServices {
  if (!services.data) {
    throw new DomainError(
      'unavailable',
      'Datasets are not served by this process (a worker); ask in a chat on the dataset, where the server runs the query.',
    );
  }
  return services.data;
}

/**
 * The dataset a tool works on: the one given, or the conversation's: the dataset itself, or the
 * dataset of a project's tables.
 */
export async function datasetIdOf(context: ToolContext, datasetId: string | undefined): Promise<string> {
  if (datasetId) return datasetId;
  const own = await subjectDatasetId(context.services, context.access.orgId, context.subject);
  if (own) return own;
  throw invalidInput(
    context.subject.kind === 'project'
      ? 'This project has no tables yet (they come from its CSV, TSV and XLSX documents); give a dataset_id (list_datasets names them).'
      : 'dataset_id is required: this conversation is not about one dataset. list_datasets names them.',
  );
}

/** The dataset a conversation is about, if any: a dataset subject, or a project's tables. */
export async function subjectDatasetId(services: ToolServices, orgId: string, subject: Subject): Promise<string | null> {
  if (subject.kind === 'dataset') return subject.id;
  if (subject.kind === 'project') return projectDatasetId(services, orgId, subject.id);
  return null;
}

export const datasetIdField = z.string().trim().min(1).max(64).optional().describe("Defaults to this conversation's dataset");

/** What a query tool answers the model: the rows, or the code and the engine's message to fix the query. */
export type QueryAnswer =
  | {
      run_id: string;
      columns: Array<{ name: string; type: string }>;
      rows: unknown[][];
      row_count: number;
      truncated: 'rows' | 'bytes' | null;
      exec_time_ms: number;
      compiled_sql?: string;
      note?: string;
    }
  | { error: string; message: string; run_id: string };

/** The rows a call may return: what it asked for (default DEFAULT_TOOL_ROWS), within the server's cap. */
function rowsFor(services: DataRunServices, asked: number | undefined): number {
  const cap = services.limits.maxRows ?? DEFAULT_LIMITS.maxRows;
  return Math.min(asked ?? DEFAULT_TOOL_ROWS, cap);
}

/**
 * Runs one query through the DataRuns service, so that it is recorded whatever its outcome, and
 * remembers it as the conversation's last run.
 */
export async function runForTool(
  context: ToolContext,
  datasetId: string | undefined,
  query: DataQuery,
  maxRows?: number,
): Promise<QueryAnswer> {
  const data = dataServicesOf(context.services);
  const services = { ...data, limits: { ...data.limits, maxRows: rowsFor(data, maxRows) } };
  const run = await runDataQuery(services, context.access, {
    datasetId: await datasetIdOf(context, datasetId),
    query,
    question: context.userMessage,
  });
  (context.workingState as DataWorkingState).last_run_id = run.id;
  return answerOf(run);
}

/** What a tool answers of a recorded run. */
export function answerOf(run: DataRunRecord): QueryAnswer {
  if (!run.result) {
    const error = run.error ?? { code: 'EXECUTION_ERROR', message: 'The run gave no result and no error.' };
    return { error: error.code, message: error.message, run_id: run.id };
  }
  const { columns, rows, row_count, truncated, exec_time_ms } = run.result;
  return {
    run_id: run.id,
    columns,
    rows,
    row_count,
    truncated,
    exec_time_ms,
    ...(run.queryMode === 'plan' && run.compiledSql !== null ? { compiled_sql: run.compiledSql } : {}),
    ...(truncated
      ? {
          note: `Only the first ${rows.length} of ${row_count} rows are here (cut by ${truncated === 'rows' ? 'max_rows' : 'the size cap'}). Aggregate or filter to see the rest, and tell the person the result was capped.`,
        }
      : {}),
  };
}
