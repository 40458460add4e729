import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database.ts';
import { usageLedger } from '../db/schema.ts';
import { invalidInput } from '../errors.ts';
import { type OrgAccess, requireAdmin } from '../identity/access.ts';

/** What a set of LLM calls used and cost. */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  /** The estimate over the calls whose model has a price. */
  costUsd: number;
  /** Calls whose model has no price in the table: their cost is not in costUsd. */
  unpricedCalls: number;
}

export interface MonthlyUsage {
  /** YYYY-MM, UTC. */
  month: string;
  totals: UsageTotals;
  byModel: Array<UsageTotals & { model: string }>;
  byOperation: Array<UsageTotals & { operation: string }>;
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month a date falls in, as YYYY-MM (UTC, as the monthly limit counts). */
export const monthOf = (date: Date) => date.toISOString().slice(0, 7);

function monthRange(month: string): { start: Date; end: Date } {
  const match = MONTH.exec(month);
  if (!match) throw invalidInput(`month must be a month as YYYY-MM, such as ${monthOf(new Date())}; "${month}" is not one.`);
  const year = Number(match[1]);
  const index = Number(match[2]) - 1;
  return { start: new Date(Date.UTC(year, index, 1)), end: new Date(Date.UTC(year, index + 1, 1)) };
}

// Sums as float8: a sum of integers is a bigint, which the pg driver would hand back as a string.
const totalsColumns = {
  calls: sql<number>`count(*)::int`,
  inputTokens: sql<number>`coalesce(sum(${usageLedger.inputTokens}), 0)::float8`,
  outputTokens: sql<number>`coalesce(sum(${usageLedger.outputTokens}), 0)::float8`,
  cachedTokens: sql<number>`coalesce(sum(${usageLedger.cachedTokens}), 0)::float8`,
  reasoningTokens: sql<number>`coalesce(sum(${usageLedger.reasoningTokens}), 0)::float8`,
  costUsd: sql<number>`coalesce(sum(${usageLedger.costUsd}), 0)::float8`,
  unpricedCalls: sql<number>`(count(*) filter (where ${usageLedger.costUsd} is null))::int`,
};

/** Biggest spend first, then most tokens, then by name, so that the order is stable. */
const byCost = (key: PgColumn) => [
  sql`coalesce(sum(${usageLedger.costUsd}), 0) desc`,
  sql`sum(${usageLedger.inputTokens} + ${usageLedger.outputTokens}) desc`,
  key,
];

/** The organization's LLM spend and tokens in one calendar month (UTC), in total, per model and per operation. Admins only. */
export async function monthlyUsage(db: Db, access: OrgAccess, month: string): Promise<MonthlyUsage> {
  requireAdmin(access, "Only an organization's admins can see its usage.");
  const { start, end } = monthRange(month);
  const where = and(eq(usageLedger.orgId, access.orgId), gte(usageLedger.createdAt, start), lt(usageLedger.createdAt, end));
  const [[totals], byModel, byOperation] = await Promise.all([
    db.select(totalsColumns).from(usageLedger).where(where),
    db
      .select({ model: usageLedger.model, ...totalsColumns })
      .from(usageLedger)
      .where(where)
      .groupBy(usageLedger.model)
      .orderBy(...byCost(usageLedger.model)),
    db
      .select({ operation: usageLedger.operation, ...totalsColumns })
      .from(usageLedger)
      .where(where)
      .groupBy(usageLedger.operation)
      .orderBy(...byCost(usageLedger.operation)),
  ]);
  if (!totals) throw new Error('an aggregate without GROUP BY returned no row');
  return { month, totals, byModel, byOperation };
}
