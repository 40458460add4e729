import { and, asc, count, eq, isNull, or, type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { type PERMISSION_EFFECTS, permissionRules } from '../db/schema.ts';
import { forbidden, invalidInput, notFound } from '../errors.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import { checkPattern, patternLike, type RulePattern } from './rule-pattern.ts';

export type RuleEffect = (typeof PERMISSION_EFFECTS)[number];
export type RuleScope = 'organization' | 'user';

/** A standing decision on some calls of a tool: the organization's (userId null) or one person's. */
export interface PermissionRule {
  id: string;
  orgId: string;
  userId: string | null;
  /** A tool's name, or `*` for every tool. */
  tool: string;
  pattern: RulePattern;
  effect: RuleEffect;
  note: string;
  createdBy: string;
  createdAt: Date;
}

export interface RuleInput {
  tool: string;
  pattern?: Record<string, string>;
  /** Instead of a pattern: the arguments of a call, whose like the rule covers (rule-pattern.ts patternLike). */
  likeCall?: Record<string, unknown>;
  effect: RuleEffect;
  note?: string;
  scope: RuleScope;
}

/** Rules an organization may hold, all its people's together. */
export const MAX_RULES_PER_ORG = 500;

/** A rule that lets every call of every tool through without asking anyone. */
export const allowsEverything = (rule: Pick<PermissionRule, 'tool' | 'pattern' | 'effect'>): boolean =>
  rule.effect === 'allow' && rule.tool === '*' && Object.keys(rule.pattern).length === 0;

export const scopeOf = (rule: Pick<PermissionRule, 'userId'>): RuleScope => (rule.userId === null ? 'organization' : 'user');

/**
 * The organization's rules and the person's own. A null `userId` (an organization token, which has
 * no person) matches the organization's only, as `user_id = null` is never true: one shape for both,
 * which rulesAlong prepares once.
 */
const whose = (orgId: string | SQLWrapper, userId: string | null | SQLWrapper) =>
  and(eq(permissionRules.orgId, orgId), or(isNull(permissionRules.userId), sql`${permissionRules.userId} = ${userId}`));

/**
 * The rules that decide a person's calls: the organization's and their own (an organization
 * token, which has no person, gets the organization's only).
 */
export async function rulesFor(db: Db, orgId: string, userId: string | null): Promise<PermissionRule[]> {
  return db
    .select()
    .from(permissionRules)
    .where(whose(orgId, userId))
    .orderBy(asc(permissionRules.createdAt), asc(permissionRules.id));
}

export type RulesAlong<T> = (
  db: Db,
  orgId: string,
  userId: string | null,
  value: unknown,
) => Promise<{ rules: PermissionRule[]; along: T }>;

/**
 * A reader of rulesFor with `along(value)`, a scalar subquery, read in the same statement: the agent
 * engine reads its turn's stop flag with the rules of each batch, one round trip instead of two.
 * The statement is built once per database (prepared-query.ts): a step sends it for every batch.
 */
export function rulesAlong<T>(along: (value: Placeholder) => SQL<T>): RulesAlong<T> {
  const statement = preparedPerDatabase((db) =>
    // One row even when there are no rules: the rules are joined to a row of their own.
    db
      .select({ along: sql<T>`(${along(sql.placeholder('along'))})`, rule: permissionRules })
      .from(sql`(select 1) as one`)
      .leftJoin(permissionRules, whose(sql.placeholder('orgId'), sql.placeholder('userId')))
      .orderBy(asc(permissionRules.createdAt), asc(permissionRules.id)),
  );
  return async (db, orgId, userId, value) => {
    const rows = await statement(db).execute({ orgId, userId, along: value });
    return { rules: rows.flatMap((row) => (row.rule ? [row.rule] : [])), along: rows[0]!.along };
  };
}

/** What a person sees in Settings: the organization's rules and their own. */
export function listRules(db: Db, access: OrgAccess): Promise<PermissionRule[]> {
  return rulesFor(db, access.orgId, access.userId);
}

/**
 * A new rule. Organization rules, and rules that would allow everything, are for admins; a
 * person's own rule needs a person (an organization token has none). `knownTools` are the
 * names a rule may name besides `*`.
 */
export async function createRule(
  db: Db,
  access: OrgAccess,
  input: RuleInput,
  knownTools: readonly string[],
): Promise<PermissionRule> {
  const rule = checkRule(access, input, knownTools);
  const [held] = await db.select({ n: count() }).from(permissionRules).where(eq(permissionRules.orgId, access.orgId));
  if ((held?.n ?? 0) >= MAX_RULES_PER_ORG) {
    throw invalidInput(
      `The organization has ${MAX_RULES_PER_ORG} rules, the most it may hold: remove rules it no longer needs first.`,
    );
  }
  const [row] = await db
    .insert(permissionRules)
    .values({
      id: newId(),
      orgId: access.orgId,
      userId: input.scope === 'user' ? access.userId : null,
      ...rule,
      createdBy: await actorName(db, access),
    })
    .returning();
  if (!row) throw new Error('The rule was not stored.');
  return row;
}

/** Changes a rule its maker may change (its scope stays what it was). */
export async function updateRule(
  db: Db,
  access: OrgAccess,
  ruleId: string,
  input: Omit<RuleInput, 'scope'>,
  knownTools: readonly string[],
): Promise<PermissionRule> {
  const current = await ownRule(db, access, ruleId);
  const rule = checkRule(access, { ...input, scope: scopeOf(current) }, knownTools);
  const [row] = await db
    .update(permissionRules)
    .set(rule)
    .where(and(eq(permissionRules.orgId, access.orgId), eq(permissionRules.id, ruleId)))
    .returning();
  if (!row) throw notFound(`Rule ${ruleId}`);
  return row;
}

export async function deleteRule(db: Db, access: OrgAccess, ruleId: string): Promise<void> {
  await ownRule(db, access, ruleId);
  await db.delete(permissionRules).where(and(eq(permissionRules.orgId, access.orgId), eq(permissionRules.id, ruleId)));
}

/** A rule this access may change: an organization rule for its admins, a person's rule for that person. */
async function ownRule(db: Db, access: OrgAccess, ruleId: string): Promise<PermissionRule> {
  const [rule] = await db
    .select()
    .from(permissionRules)
    .where(and(whose(access.orgId, access.userId), eq(permissionRules.id, ruleId)));
  if (!rule) throw notFound(`Rule ${ruleId}`);
  if (rule.userId === null && access.role !== 'admin') {
    throw forbidden("Only the organization's admins can change or remove its rules; ask one of them.");
  }
  return rule;
}

function checkRule(access: OrgAccess, input: RuleInput, knownTools: readonly string[]) {
  const tool = input.tool.trim();
  if (tool !== '*' && !knownTools.includes(tool)) {
    throw invalidInput(
      `There is no tool named "${tool}": name one of the agent's tools (GET .../chat/tools) or * for every tool.`,
    );
  }
  if (input.likeCall !== undefined && input.pattern !== undefined) {
    throw invalidInput('Give a rule either a pattern or the call it is like (like_call), not both.');
  }
  const pattern = checkPattern(input.likeCall !== undefined ? patternLike(input.likeCall) : (input.pattern ?? {}));
  const note = (input.note ?? '').trim();
  if (note.length > 500) throw invalidInput("A rule's note has at most 500 characters.");
  if (input.scope === 'organization' && access.role !== 'admin') {
    throw forbidden("Only the organization's admins can make rules for all of it; make the rule for yourself instead.");
  }
  if (input.scope === 'user' && access.userId === null) {
    throw invalidInput('An organization token acts for no person: make the rule for the organization instead.');
  }
  if (allowsEverything({ tool, pattern, effect: input.effect }) && access.role !== 'admin') {
    throw forbidden('A rule allowing every call of every tool is for admins only; name a tool or give a pattern.');
  }
  return { tool, pattern, effect: input.effect, note };
}
