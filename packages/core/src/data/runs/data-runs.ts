import type { Db } from '../../db/database.ts';
import { type DataRunError, type DataRunResult, type DataRunStatus, dataRuns } from '../../db/schema.ts';
import { storableText } from '../../db/storable-text.ts';
import { actorName, type OrgAccess } from '../../identity/access.ts';
import { newId } from '../../ids.ts';
import { failureMessage } from '../../scrub-errors.ts';
import { tableFilesOf } from '../datasets/dataset-table-files.ts';
import { type DatasetTableRecord, getCurrentDataset } from '../datasets/datasets.ts';
import { ExecutionFailure, type QueryResult } from '../executors.ts';
import { compileQueryPlan, QueryPlanError } from '../sql/query-plan-compiler.ts';
import type { DataRunServices } from './run-services.ts';

export {
  DATA_QUERY_MODES,
  DATA_RUN_STATUSES,
  type DataQueryMode,
  type DataRunError,
  type DataRunResult,
  type DataRunStatus,
} from '../../db/schema.ts';

export type DataRunRecord = typeof dataRuns.$inferSelect;

/** One execution asked for: SQL as written, a query plan, or a Python program. */
export type DataQuery =
  | { mode: 'sql'; sql: string }
  | { mode: 'plan'; plan: Record<string, unknown> }
  | { mode: 'python'; code: string };

export interface DataRunInput {
  datasetId: string;
  query: DataQuery;
  /** The person's question the query answers, when there is one (the agent's turn, a note). */
  question?: string;
}

/** What an execution left to record, whichever way it ended. */
interface Outcome {
  status: DataRunStatus;
  result: DataRunResult | null;
  error: DataRunError | null;
  compiledSql: string | null;
  planJson: Record<string, unknown> | null;
}

/**
 * A value jsonb accepts: strings without NUL or lone surrogates, BigInts as numbers when safe (else
 * as text). The executors already answer JSON values; this keeps a stray one from failing the record.
 */
function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value).text;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(storable);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k).text, storable(v)]));
  return value ?? null;
}

const toResult = (r: QueryResult): DataRunResult => ({
  columns: r.columns.map((c) => ({ name: storableText(c.name).text, type: c.type })),
  rows: storable(r.rows) as unknown[][],
  row_count: r.row_count,
  exec_time_ms: r.exec_time_ms,
  truncated: r.truncated,
});

/** Why the run gave no result, and whether it was refused before running (rejected) or failed. */
function failureOf(error: unknown): { status: DataRunStatus; error: DataRunError } {
  if (error instanceof QueryPlanError) return { status: 'rejected', error: { code: error.code, message: error.message } };
  if (error instanceof ExecutionFailure) {
    return { status: error.kind === 'policy' ? 'rejected' : 'failed', error: { code: error.code, message: error.message } };
  }
  const message = `The execution failed unexpectedly (${failureMessage(error)}); try again, and report it if it persists.`;
  return { status: 'failed', error: { code: 'EXECUTION_ERROR', message } };
}

async function execute(
  services: DataRunServices,
  orgId: string,
  query: DataQuery,
  stored: DatasetTableRecord[],
): Promise<Outcome> {
  const { limits } = services;
  let compiledSql: string | null = null;
  let planJson: Record<string, unknown> | null = null;
  try {
    // A table file that cannot be written from its blob fails this run, recorded like any other failure.
    const tables = await tableFilesOf(services.tableFiles, stored);
    let result: QueryResult;
    if (query.mode === 'sql') {
      compiledSql = query.sql;
      result = await services.sqlFor(orgId).run(query.sql, tables, limits);
    } else if (query.mode === 'plan') {
      planJson = query.plan;
      const compiled = compileQueryPlan(query.plan, tables);
      compiledSql = compiled.sql;
      planJson = compiled.plan;
      result = await services.sqlFor(orgId).run(compiled.sql, tables, limits, compiled.params);
    } else {
      const unavailable = await services.python.unavailableReason();
      if (unavailable !== null) throw new ExecutionFailure('disabled', unavailable);
      result = await services.python.run(query.code, tables, limits);
    }
    return { status: 'succeeded', result: toResult(result), error: null, compiledSql, planJson };
  } catch (error) {
    const { status, error: failure } = failureOf(error);
    return {
      status,
      result: null,
      error: { code: failure.code, message: storableText(failure.message).text },
      compiledSql,
      planJson,
    };
  }
}

/**
 * Runs one SQL query, query plan or Python program over the dataset's ready tables through the
 * executors, and records it as a DataRun whatever the outcome: `succeeded` with the
 * (already capped) result, `rejected` when the policy refused it, `failed` with the engine's message
 * otherwise. Another organization's dataset is not found.
 */
export async function runDataQuery(services: DataRunServices, access: OrgAccess, input: DataRunInput): Promise<DataRunRecord> {
  const { db } = services;
  const dataset = await getCurrentDataset(services, access.orgId, input.datasetId);
  const outcome = await execute(services, access.orgId, input.query, dataset.tables);
  const text = (value: string | null | undefined) => (value === null || value === undefined ? null : storableText(value).text);
  return recordRun(db, access, {
    datasetId: dataset.id,
    question: text(input.question),
    queryMode: input.query.mode,
    planJson: outcome.planJson === null ? null : (storable(outcome.planJson) as Record<string, unknown>),
    compiledSql: text(outcome.compiledSql),
    pythonCode: text(input.query.mode === 'python' ? input.query.code : null),
    status: outcome.status,
    result: outcome.result,
    error: outcome.error,
  });
}

async function recordRun(
  db: Db,
  access: OrgAccess,
  run: Omit<typeof dataRuns.$inferInsert, 'id' | 'orgId' | 'createdBy'>,
): Promise<DataRunRecord> {
  const [row] = await db
    .insert(dataRuns)
    .values({ ...run, id: newId(), orgId: access.orgId, createdBy: await actorName(db, access) })
    .returning();
  if (!row) throw new Error('inserting a data run returned no row');
  return row;
}
