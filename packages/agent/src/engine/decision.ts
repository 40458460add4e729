import { coveringRule, describeRule, type PermissionRule } from '@docagent/core';
import type { ToolContext, ToolDefinition } from '../tools/tool.ts';

/**
 * A write a run with no person watching may make: the tool, and which of its targets. `subject`:
 * only the conversation's own subject; `own`: only what this run's actor created, or something new.
 * Without a target, any call of the tool.
 */
export interface DeclaredWrite {
  tool: string;
  target?: 'subject' | 'own';
}

/** What the person (or, for a headless run, its declaration) allows for a turn. */
export interface Permissions {
  autoApprove: boolean;
  autoApprovedTools: string[];
  /** Set for headless runs: the only writes they may make; every other write is denied. */
  declaredWrites?: DeclaredWrite[];
  /** The organization's and the person's standing rules (permission-rules.ts). */
  rules: readonly PermissionRule[];
  /** Plan mode: the turn may look but not change anything until its plan is approved. */
  planMode?: boolean;
}

/** The one verdict on a tool call, with the reason the client and the audit both see, and the rule that made it. */
export type Decision = { effect: 'allow' | 'ask' | 'deny'; reason: string; ruleId?: string };

const allow = (reason: string): Decision => ({ effect: 'allow', reason });
const deny = (reason: string): Decision => ({ effect: 'deny', reason });

/**
 * Decides one call of a known tool, deny before ask before allow: a deny rule covering the call
 * refuses it, whatever else would let it through; read-only tools run (unless they ask first:
 * they spend model calls); plan mode refuses writes; a headless run makes only its declared
 * writes (rules never widen them); a person's turn runs a write at once when they allowed it
 * ahead (auto-approve, the turn's tools, an allow rule) and asks otherwise.
 */
export async function decide(
  tool: ToolDefinition,
  rawInput: unknown,
  permissions: Permissions,
  context: ToolContext,
): Promise<Decision> {
  const denial = coveringRule(permissions.rules, 'deny', tool.name, rawInput);
  if (denial) return { effect: 'deny', reason: `Refused by ${describeRule(denial)}.`, ruleId: denial.id };
  if (tool.access === 'read_only' && !tool.asksFirst) return allow('read-only tool');
  if (permissions.planMode && tool.access === 'read_write') return deny(PLAN_MODE_DENIAL);
  if (permissions.declaredWrites) return decideDeclared(tool, rawInput, permissions.declaredWrites, context);
  if (permissions.autoApprove) return allow('auto-approve is on for this turn');
  if (permissions.autoApprovedTools.includes(tool.name)) return allow(`${tool.name} is in auto_approved_tools`);
  const grant = coveringRule(permissions.rules, 'allow', tool.name, rawInput);
  if (grant) return { effect: 'allow', reason: `Allowed by ${describeRule(grant)}.`, ruleId: grant.id };
  return { effect: 'ask', reason: tool.asksFirst ?? `${tool.name} changes data and needs your approval` };
}

/** What a write is told in plan mode: the model learns to answer with its plan instead. */
export const PLAN_MODE_DENIAL =
  'Plan mode: nothing may be changed until the person approves your plan. Use read-only tools to look, then answer with the plan: the changes you would make, one per line, with the tool and its arguments.';

async function decideDeclared(
  tool: ToolDefinition,
  rawInput: unknown,
  writes: DeclaredWrite[],
  context: ToolContext,
): Promise<Decision> {
  const grants = writes.filter((w) => w.tool === tool.name);
  const declared = writes.map(describe).join(', ') || 'none';
  if (grants.length === 0) {
    return deny(
      `This run has no person watching and may make only its declared writes (${declared}); ${tool.name} is not one of them.`,
    );
  }
  if (grants.some((g) => g.target === undefined)) return allow(`${tool.name} is a declared write of this run`);
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success || !tool.target) {
    return deny(
      `${tool.name} is declared for this run only on ${grants.map(describe).join(' or ')}, and this call's target cannot be checked.`,
    );
  }
  const target = await tool.target(context, parsed.data);
  for (const grant of grants) {
    if (grant.target === 'subject' && target.subject) return allow(`${describe(grant)} is a declared write of this run`);
    const actor = context.access.actor;
    if (grant.target === 'own' && actor !== undefined && (target.creator === null || target.creator === actor)) {
      return allow(`${describe(grant)} is a declared write of this run`);
    }
  }
  const instead = grants.some((g) => g.target === 'own')
    ? 'it would change something this run did not create (for a create, a name already in use): use a new name instead'
    : "it targets something other than this conversation's own subject";
  return deny(
    `This run may make ${tool.name} only as ${grants.map(describe).join(' or ')}; this call is refused because ${instead}.`,
  );
}

function describe(write: DeclaredWrite): string {
  switch (write.target) {
    case 'subject':
      return `${write.tool} on this conversation's own subject`;
    case 'own':
      return `${write.tool} of what this run created`;
    default:
      return write.tool;
  }
}
