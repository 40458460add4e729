import {
  DATA_QUERY_MODES,
  DATA_RUN_STATUSES,
  type DataQuery,
  type DataRunRecord,
  invalidInput,
  publicDatasetId,
  QueryPlanSchema,
} from '@docagent/core';
import { z } from 'zod';
import { iso } from './schemas.ts';

/** Data runs on the wire: seed 004's run capsule. */

const ResultSchema = z.object({
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  rows: z.array(z.array(z.unknown())).describe('Row-major, at most max_rows and max_output_bytes'),
  row_count: z.number().describe('Rows the query produced, also past the cap when known'),
  exec_time_ms: z.number(),
  truncated: z.enum(['rows', 'bytes']).nullable().describe('Set when rows were cut, by which limit'),
});

const ErrorSchema = z.object({
  code: z.string().describe('SQL_POLICY_VIOLATION, PLAN_VALIDATION_ERROR, EXECUTION_ERROR, LIMIT_EXCEEDED or FEATURE_DISABLED'),
  message: z.string(),
});

const RunFields = {
  run_id: z.string(),
  dataset_id: z.string(),
  question: z.string().nullable(),
  query_mode: z.enum(DATA_QUERY_MODES),
  plan_json: z.record(z.string(), z.unknown()).nullable().describe('The query plan as validated (defaults filled in)'),
  compiled_sql: z
    .string()
    .nullable()
    .describe('The SQL that ran: as written, or compiled from the plan ($n placeholders bound to its values)'),
  python_code: z.string().nullable(),
  status: z.enum(DATA_RUN_STATUSES).describe('rejected: refused before running (policy, invalid plan); failed: ran and failed'),
  error: ErrorSchema.nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
};

export const DataRunSchema = z.object({ ...RunFields, result: ResultSchema.nullable() });

export const DataRunSummarySchema = z.object({
  ...RunFields,
  row_count: z.number().nullable(),
  exec_time_ms: z.number().nullable(),
});

const runFields = (r: DataRunRecord) => ({
  run_id: r.id,
  dataset_id: publicDatasetId(r.datasetId),
  question: r.question,
  query_mode: r.queryMode,
  plan_json: r.planJson,
  compiled_sql: r.compiledSql,
  python_code: r.pythonCode,
  status: r.status,
  error: r.error,
  created_by: r.createdBy,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

export const toDataRun = (r: DataRunRecord): z.infer<typeof DataRunSchema> => ({ ...runFields(r), result: r.result });

export const toDataRunSummary = (r: DataRunRecord): z.infer<typeof DataRunSummarySchema> => ({
  ...runFields(r),
  row_count: r.result?.row_count ?? null,
  exec_time_ms: r.result?.exec_time_ms ?? null,
});

export const RunBodySchema = z.strictObject({
  dataset_id: z.string().min(1).max(64).describe('A dataset id, or extractions: the built-in dataset of extraction results'),
  query_type: z.enum(['sql', 'plan', 'python']),
  sql: z.string().max(100_000).optional().describe('One SELECT (a WITH ... SELECT included), for query_type sql'),
  plan: QueryPlanSchema.optional().describe("Seed 004's query plan, for query_type plan"),
  python_code: z.string().max(100_000).optional().describe('Python that assigns result_df, for query_type python'),
  question: z.string().max(10_000).optional().describe('The question the query answers, kept with the run'),
});

/** The one query the body asks for; the field of its query_type must be there, and no other. */
export function queryOf(body: z.infer<typeof RunBodySchema>): DataQuery {
  const given = (['sql', 'plan', 'python_code'] as const).filter((field) => body[field] !== undefined);
  const wanted = body.query_type === 'python' ? 'python_code' : body.query_type;
  if (given.length !== 1 || given[0] !== wanted) {
    throw invalidInput(`query_type ${body.query_type} takes the field ${wanted}, and no other of sql, plan and python_code.`);
  }
  if (body.query_type === 'sql') return { mode: 'sql', sql: body.sql ?? '' };
  if (body.query_type === 'plan') return { mode: 'plan', plan: body.plan ?? {} };
  return { mode: 'python', code: body.python_code ?? '' };
}
