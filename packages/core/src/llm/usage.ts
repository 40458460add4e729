import type { LanguageModelUsage } from 'ai';
import { and, eq, gte, type SQL, type SQLWrapper, sql, sum } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { usageLedger } from '../db/schema.ts';
import { usageLimitReached } from '../errors.ts';
import { newId } from '../ids.ts';
import { getOrgLlmSettings, type OrgLlmSettings } from './llm-settings.ts';
import { MODEL_PRICES, PROVIDERS } from './model-catalog.ts';
import type { ModelRef } from './model-ids.ts';

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache (part of inputTokens). */
  cachedTokens: number;
  /** Output tokens spent on reasoning (part of outputTokens). */
  reasoningTokens: number;
}

export function tokenUsage(usage: LanguageModelUsage | undefined): TokenUsage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cachedTokens: usage?.inputTokenDetails?.cacheReadTokens ?? 0,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens ?? 0,
  };
}

export const addUsage = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cachedTokens: a.cachedTokens + b.cachedTokens,
  reasoningTokens: a.reasoningTokens + b.reasoningTokens,
});

/** USD from the price table; null when the model has no price (local endpoints cost 0). */
export function estimateCost(model: ModelRef, usage: TokenUsage): number | null {
  if (PROVIDERS[model.provider].local) return 0;
  const price = MODEL_PRICES[model.id];
  if (!price) return null;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const cost =
    (usage.inputTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output;
  return cost / 1_000_000;
}

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

/** Estimated spend of the organization since the start of this calendar month (UTC). */
export async function spentThisMonth(db: Db, orgId: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ total: sum(usageLedger.costUsd).mapWith(Number) })
    .from(usageLedger)
    .where(and(eq(usageLedger.orgId, orgId), gte(usageLedger.createdAt, monthStart(now))));
  return row?.total ?? 0;
}

/**
 * Refuses a call before it is made once the organization's monthly limit is spent. The limit is
 * read from the organization's settings unless the caller has them already.
 */
export async function assertWithinUsageLimit(
  db: Db,
  orgId: string,
  settings?: Pick<OrgLlmSettings, 'monthlyLimitUsd'>,
): Promise<void> {
  const { monthlyLimitUsd } = settings ?? (await getOrgLlmSettings(db, orgId));
  if (monthlyLimitUsd == null) return;
  const spent = await spentThisMonth(db, orgId);
  if (spent >= monthlyLimitUsd) {
    throw usageLimitReached(
      `This organization's LLM usage limit of $${monthlyLimitUsd.toFixed(2)} a month is reached ($${spent.toFixed(2)} spent since the 1st). An admin can raise it in Settings → Models; nothing was sent to the model.`,
    );
  }
}

export interface UsageRecord {
  orgId: string;
  model: ModelRef;
  operation: string;
  documentId?: string;
  usage: TokenUsage;
}

/** One row of the usage ledger, priced, ready to be written now or with another statement. */
export interface UsageEntry extends TokenUsage {
  id: string;
  orgId: string;
  model: string;
  operation: string;
  documentId: string | null;
  costUsd: number | null;
}

export function usageEntryOf(record: UsageRecord): UsageEntry {
  return {
    id: newId(),
    orgId: record.orgId,
    model: record.model.id,
    operation: record.operation,
    documentId: record.documentId ?? null,
    ...record.usage,
    costUsd: estimateCost(record.model, record.usage),
  };
}

/**
 * The INSERT of usage entries given as one JSON array of UsageEntry (a value, or the placeholder
 * of a statement prepared once: an agent step's commit carries it, with no entries as often as not).
 */
export function usageInsertOf(entries: SQLWrapper | string): SQL {
  return sql`insert into ${usageLedger} (id, org_id, model, operation, document_id, input_tokens, output_tokens,
      cached_tokens, reasoning_tokens, cost_usd)
    select id, "orgId", model, operation, "documentId", "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", "costUsd"
    from json_to_recordset(${entries}::json) as e(id text, "orgId" text, model text, operation text, "documentId" text,
      "inputTokens" int, "outputTokens" int, "cachedTokens" int, "reasoningTokens" int, "costUsd" float8)`;
}

export async function writeUsage(db: Db, entry: UsageEntry): Promise<void> {
  await db.execute(usageInsertOf(JSON.stringify([entry])));
}

/** Writes the record; answers its estimated cost. */
export async function recordUsage(db: Db, record: UsageRecord): Promise<number | null> {
  const entry = usageEntryOf(record);
  await writeUsage(db, entry);
  return entry.costUsd;
}

export interface UsageSummaryRow {
  model: string;
  operation: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** This month's usage per model and operation. */
export async function usageThisMonth(db: Db, orgId: string, now = new Date()): Promise<UsageSummaryRow[]> {
  return db
    .select({
      model: usageLedger.model,
      operation: usageLedger.operation,
      calls: sql<number>`count(*)::int`,
      inputTokens: sql<number>`coalesce(sum(${usageLedger.inputTokens}), 0)::int`,
      outputTokens: sql<number>`coalesce(sum(${usageLedger.outputTokens}), 0)::int`,
      costUsd: sql<number>`coalesce(sum(${usageLedger.costUsd}), 0)::float8`,
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.orgId, orgId), gte(usageLedger.createdAt, monthStart(now))))
    .groupBy(usageLedger.model, usageLedger.operation)
    .orderBy(usageLedger.model, usageLedger.operation);
}
