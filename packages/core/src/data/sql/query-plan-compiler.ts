import type { ExecutionLimits, QueryResult, SqlExecutor, SqlParameter, TableFile } from '../executors.ts';
import { type PlanFilter, type PlanSelectItem, type QueryPlan, QueryPlanSchema } from './query-plan.ts';
import { foldName, quoteIdentifier } from './sql-identifiers.ts';

/** A plan that cannot be compiled: its shape, or a table or column the dataset does not have. */
export class QueryPlanError extends Error {
  readonly code = 'PLAN_VALIDATION_ERROR';

  constructor(message: string) {
    super(message);
    this.name = 'QueryPlanError';
  }
}

export interface CompiledPlan {
  plan: QueryPlan;
  /** The SELECT, identifiers quoted, values as $1, $2... placeholders. */
  sql: string;
  /** The values bound to the placeholders, in order. */
  params: SqlParameter[];
}

export type PlanResult = QueryResult & { compiled_sql: string; params: SqlParameter[]; plan: QueryPlan };

type PlanTable = Pick<TableFile, 'name' | 'columns'>;

const OPERATORS: Record<string, string> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=', like: 'LIKE' };

/** Text columns compare with text: a number bound against one would make DuckDB cast the column instead. */
const isText = (type: string) => /^(VARCHAR|TEXT|STRING|CHAR|BPCHAR)\b/i.test(type.trim());

class Compilation {
  readonly params: SqlParameter[] = [];
  private readonly table: PlanTable;
  private readonly columns: Map<string, { name: string; type: string }>;

  constructor(table: PlanTable) {
    this.table = table;
    this.columns = new Map(table.columns.map((column) => [foldName(column.name), column]));
  }

  column(asked: string, where: string): { name: string; type: string } {
    const found = this.columns.get(foldName(asked));
    if (found) return found;
    const known = this.table.columns.map((c) => c.name).join(', ') || 'none';
    throw new QueryPlanError(
      `The column "${asked}" (in ${where}) is not in table "${this.table.name}"; its columns are: ${known}.`,
    );
  }

  bind(value: SqlParameter, columnType: string, operator: string): string {
    const textual = operator === 'like' || isText(columnType);
    this.params.push(textual && value !== null ? String(value) : value);
    return `$${this.params.length}`;
  }
}

interface SelectPart {
  sql: string;
  alias: string | null;
  aggregate: boolean;
  column: string;
}

function selectPart(item: PlanSelectItem, c: Compilation): SelectPart {
  const {
    column,
    function: fn,
    alias,
  } = typeof item === 'string' ? { column: item, function: undefined, alias: undefined } : item;
  const as = alias === undefined ? '' : ` AS ${quoteIdentifier(alias)}`;
  if (column === '*') {
    if (fn === undefined && alias === undefined) return { sql: '*', alias: null, aggregate: false, column };
    if (fn !== 'count')
      throw new QueryPlanError(`"*" goes with count only (or alone, for all columns); name a column for ${fn ?? 'an alias'}.`);
    const name = alias ?? 'count';
    return { sql: `count(*) AS ${quoteIdentifier(name)}`, alias: name, aggregate: true, column };
  }
  const resolved = c.column(column, 'select').name;
  const quoted = quoteIdentifier(resolved);
  if (fn === undefined) return { sql: `${quoted}${as}`, alias: alias ?? null, aggregate: false, column: resolved };
  const expression = fn === 'count_distinct' ? `count(DISTINCT ${quoted})` : `${fn}(${quoted})`;
  const name = alias ?? `${fn}_${resolved}`;
  return { sql: `${expression} AS ${quoteIdentifier(name)}`, alias: name, aggregate: true, column: resolved };
}

function condition(filter: PlanFilter, c: Compilation): string {
  const column = c.column(filter.column, 'filters');
  const quoted = quoteIdentifier(column.name);
  if (filter.operator === 'is_null') return `${quoted} IS NULL`;
  if (filter.operator === 'is_not_null') return `${quoted} IS NOT NULL`;
  const values = Array.isArray(filter.value) ? filter.value : [filter.value ?? null];
  const bound = values.map((value) => c.bind(value, column.type, filter.operator));
  switch (filter.operator) {
    case 'in':
      return `${quoted} IN (${bound.join(', ')})`;
    case 'not_in':
      return `${quoted} NOT IN (${bound.join(', ')})`;
    case 'between':
      return `${quoted} BETWEEN ${bound[0]} AND ${bound[1]}`;
    default:
      return `${quoted} ${OPERATORS[filter.operator]} ${bound[0]}`;
  }
}

/** Every selected column must be grouped when anything is aggregated, as SQL requires: said here plainly. */
function checkGrouping(parts: SelectPart[], groupBy: string[]): void {
  if (!parts.some((part) => part.aggregate)) return;
  const grouped = new Set(groupBy.map(foldName));
  for (const part of parts) {
    if (part.aggregate) continue;
    if (part.column === '*')
      throw new QueryPlanError('"*" cannot be selected with aggregates; list the grouped columns instead.');
    if (!grouped.has(foldName(part.column))) {
      throw new QueryPlanError(
        `The column "${part.column}" is selected but neither grouped nor aggregated; add it to group_by or aggregate it.`,
      );
    }
  }
}

const problems = (issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) =>
  issues.map((issue) => `${issue.path.map(String).join('.') || '(plan)'}: ${issue.message}`).join('; ');

/**
 * The plan as one SELECT, deterministically: the same plan always gives the same text.
 * Identifiers are checked against the table's columns and quoted; values are never written
 * into the text, they are bound. Throws QueryPlanError saying what to fix.
 */
export function compileQueryPlan(input: unknown, tables: PlanTable[]): CompiledPlan {
  const parsed = QueryPlanSchema.safeParse(input);
  if (!parsed.success)
    throw new QueryPlanError(`The query plan is not valid: ${problems(parsed.error.issues)}. Fix it and send it again.`);
  const plan = parsed.data;
  const table = tables.find((t) => foldName(t.name) === foldName(plan.table));
  if (!table) {
    const known = tables.map((t) => t.name).join(', ') || 'none';
    throw new QueryPlanError(`The table "${plan.table}" is not in the dataset; its tables are: ${known}.`);
  }
  const c = new Compilation(table);
  const parts = (plan.select.length > 0 ? plan.select : ['*']).map((item) => selectPart(item, c));
  const groupBy = plan.group_by.map((column) => c.column(column, 'group_by').name);
  checkGrouping(parts, groupBy);
  const conditions = plan.filters.map((filter) => condition(filter, c));
  const aliases = new Map(parts.flatMap((part) => (part.alias ? [[foldName(part.alias), part.alias] as const] : [])));
  const orderBy = plan.order_by.map(({ column, direction }) => {
    const name = aliases.get(foldName(column)) ?? c.column(column, 'order_by').name;
    return `${quoteIdentifier(name)} ${direction.toUpperCase()}`;
  });

  const sql = [
    `SELECT ${parts.map((part) => part.sql).join(', ')}`,
    `FROM ${quoteIdentifier(table.name)}`,
    conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '',
    groupBy.length > 0 ? `GROUP BY ${groupBy.map(quoteIdentifier).join(', ')}` : '',
    orderBy.length > 0 ? `ORDER BY ${orderBy.join(', ')}` : '',
    `LIMIT ${plan.limit}`,
  ]
    .filter(Boolean)
    .join(' ');
  return { plan, sql, params: c.params };
}

/** Compiles the plan and runs it through the SQL executor (and so through the SQL policy). */
export async function runQueryPlan(
  executor: SqlExecutor,
  input: unknown,
  tables: TableFile[],
  limits?: Partial<ExecutionLimits>,
): Promise<PlanResult> {
  const { plan, sql, params } = compileQueryPlan(input, tables);
  const result = await executor.run(sql, tables, limits, params);
  return { ...result, compiled_sql: sql, params, plan };
}
