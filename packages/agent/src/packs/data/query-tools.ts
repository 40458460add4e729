import { QueryPlanSchema } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import { DEFAULT_TOOL_ROWS, datasetIdField, runForTool } from './shared.ts';

/**
 * The three ways to compute over a dataset. Each execution goes through the DataRuns service, so
 * it is recorded (a run_id comes back either way); an error answers seed 004's code with the
 * engine's own message, for the model to correct its query.
 */

const maxRowsField = z
  .number()
  .int()
  .min(1)
  .max(10_000)
  .optional()
  .describe(`How many rows to return (default ${DEFAULT_TOOL_ROWS}; the server caps it, normally at 200)`);

const CAPS =
  'Results are capped by rows and by size (normally 256 KB): when `truncated` is set, only the first rows came back (row_count says how many there were), so aggregate or filter instead of fetching everything, and tell the person the result was capped.';

export const executeSqlTool = defineTool({
  name: 'execute_sql',
  description: [
    "Run ONE read-only SQL query over the dataset's tables and get its rows (the run is recorded; its run_id comes back).",
    'Dialect: DuckDB. Exactly one SELECT statement (WITH ... SELECT allowed), no trailing second statement. Refused (SQL_POLICY_VIOLATION): INSERT, UPDATE, DELETE, CREATE, COPY, PRAGMA, SET, ATTACH, INSTALL, LOAD, CALL, EXPORT, and functions that read files or URLs (read_csv, read_parquet...): name the tables by their table_name only.',
    'Quote column and table names with double quotes when they are not plain lower-case words: "Order Date", "Total (EUR)". String values take single quotes: \'north\'. Column names must be exactly those of get_dataset_schema.',
    CAPS,
    "On an error you get {error, message} with DuckDB's message (e.g. a misspelt column and its candidates): read it, fix the query and call again; never repeat the same query.",
    'Example: {"sql": "SELECT region, sum(amount) AS total FROM orders GROUP BY region ORDER BY total DESC", "max_rows": 20}',
  ].join('\n'),
  input: z.strictObject({
    sql: z.string().trim().min(1).max(100_000).describe('One DuckDB SELECT over the tables, by their table_name'),
    max_rows: maxRowsField,
    dataset_id: datasetIdField,
  }),
  access: 'read_only',
  run: (context, input) => runForTool(context, input.dataset_id, { mode: 'sql', sql: input.sql }, input.max_rows),
});

export const executeQueryPlanTool = defineTool({
  name: 'execute_query_plan',
  description: [
    'Run a query written as data instead of SQL, over ONE table: {table, select, filters, group_by, order_by, limit}. It is compiled to DuckDB SQL with quoted names and bound values (compiled_sql comes back), so quoting cannot go wrong.',
    'select: column names, "*", or aggregates {function: count | sum | avg | min | max | count_distinct, column, alias}. filters (all must hold): {column, operator: = != < <= > >= in not_in like is_null is_not_null between, value} (a list for in/not_in, [low, high] for between, no value for is_null). order_by: [{column or alias, direction: asc | desc}].',
    'An unknown table or column is refused (PLAN_VALIDATION_ERROR) with the known ones listed: fix the plan and call again.',
    CAPS,
    'Example: {"plan": {"table": "orders", "select": ["region", {"function": "sum", "column": "amount", "alias": "total"}], "filters": [{"column": "status", "operator": "=", "value": "paid"}], "group_by": ["region"], "order_by": [{"column": "total", "direction": "desc"}], "limit": 10}}',
  ].join('\n'),
  input: z.strictObject({
    plan: QueryPlanSchema.describe('The query plan; table and column names as get_dataset_schema gives them'),
    max_rows: maxRowsField,
    dataset_id: datasetIdField,
  }),
  access: 'read_only',
  run: (context, input) => runForTool(context, input.dataset_id, { mode: 'plan', plan: input.plan }, input.max_rows),
});

export const executePythonTool = defineTool({
  name: 'execute_python',
  description: [
    'Run Python 3 with pandas over the dataset, for what SQL says badly (reshaping, parsing text, statistics). Each table is a pandas DataFrame in a variable named after its table_name (e.g. orders).',
    'The code must assign the answer to result_df (a DataFrame, a Series, a list or a single value); what it prints is not returned.',
    'Sandboxed: no network, no files but a private /tmp, the standard library, pandas and numpy only; time, memory and output are limited.',
    CAPS,
    "On an error you get {error, message} with the traceback's end: fix the code and call again. FEATURE_DISABLED means Python is not installed on this server: use execute_sql instead.",
    'Example: {"code": "result_df = orders.groupby(\'region\')[\'amount\'].sum().reset_index()"}',
  ].join('\n'),
  input: z.strictObject({
    code: z.string().min(1).max(100_000).describe('Python that assigns result_df'),
    max_rows: maxRowsField,
    dataset_id: datasetIdField,
  }),
  access: 'read_only',
  run: (context, input) => runForTool(context, input.dataset_id, { mode: 'python', code: input.code }, input.max_rows),
});
