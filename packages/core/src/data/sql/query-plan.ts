import { z } from 'zod';

/**
 * Seed 004's QueryPlan: a query as data (table, select, filters, group_by, order_by, limit),
 * for questions whose answer must be precise and reproducible. It is compiled to SQL by
 * query-plan-compiler.ts and runs through the same SQL runner and policy as written SQL.
 */

export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max', 'count_distinct'] as const;
export const FILTER_OPERATORS = [
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'in',
  'not_in',
  'like',
  'is_null',
  'is_not_null',
  'between',
] as const;
export const MAX_PLAN_LIMIT = 10_000;
export const DEFAULT_PLAN_LIMIT = 200;

const name = z.string().min(1).max(256);
const scalar = z.union([z.string().max(10_000), z.number().finite(), z.boolean()]);

const selectItem = z.union([
  name.describe('A column of the table, or "*" for all of them'),
  z.strictObject({
    column: name.describe('A column, or "*" with count'),
    function: z.enum(AGGREGATE_FUNCTIONS).optional().describe('An aggregate over the column'),
    alias: name.optional().describe("The result column's name (default: function_column)"),
  }),
]);

const filter = z
  .strictObject({
    column: name,
    operator: z.enum(FILTER_OPERATORS),
    value: z
      .union([scalar, z.array(scalar).min(1).max(1000), z.null()])
      .optional()
      .describe('A value; a list for in/not_in; [low, high] for between; none for is_null/is_not_null'),
  })
  .superRefine((f, context) => {
    const problem = filterValueProblem(f.operator, f.value);
    if (problem) context.addIssue({ code: 'custom', path: ['value'], message: problem });
  });

function filterValueProblem(operator: (typeof FILTER_OPERATORS)[number], value: unknown): string | null {
  const isList = Array.isArray(value);
  const absent = value === undefined || value === null;
  switch (operator) {
    case 'is_null':
    case 'is_not_null':
      return absent ? null : `${operator} takes no value; leave value out`;
    case 'in':
    case 'not_in':
      return isList ? null : `${operator} takes a list of values, e.g. ["a", "b"]`;
    case 'between':
      return isList && value.length === 2 ? null : 'between takes [low, high], two values';
    default:
      if (absent) return `${operator} needs a value; to match missing values use is_null`;
      return isList ? `${operator} takes one value, not a list (use in for a list)` : null;
  }
}

export const QueryPlanSchema = z.strictObject({
  dataset_id: z.string().optional().describe('The dataset the plan is for (informative: the caller picks the tables)'),
  table: name.describe('The table to query, as get_dataset_schema names it'),
  select: z.array(selectItem).max(100).default(['*']).describe('Columns and aggregates; all columns when empty'),
  filters: z.array(filter).max(100).default([]).describe('Conditions, all of which must hold'),
  group_by: z.array(name).max(100).default([]),
  order_by: z
    .array(
      z.strictObject({ column: name.describe('A column or a select alias'), direction: z.enum(['asc', 'desc']).default('asc') }),
    )
    .max(20)
    .default([]),
  limit: z.number().int().min(1).max(MAX_PLAN_LIMIT).default(DEFAULT_PLAN_LIMIT),
});

export type QueryPlan = z.infer<typeof QueryPlanSchema>;
/** A plan as a caller may write it: every field with a default may be left out. */
export type QueryPlanInput = z.input<typeof QueryPlanSchema>;
export type PlanFilter = QueryPlan['filters'][number];
export type PlanSelectItem = QueryPlan['select'][number];
