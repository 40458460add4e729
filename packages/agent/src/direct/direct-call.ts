import {
  allowsEverything,
  invalidInput,
  isDomainError,
  newId,
  type OrgAccess,
  type PermissionRule,
  rulesFor,
  type TokenUsage,
} from '@docagent/core';
import type { AgentEngine } from '../engine/agent-engine.ts';
import { decide } from '../engine/decision.ts';
import type { CallDecision } from '../engine/events.ts';
import type { LlmGateway } from '../engine/llm-gateway.ts';
import type { Subject } from '../engine/pack.ts';
import { recordDirectCall } from '../engine/run-records.ts';
import type { SubjectCatalog } from '../engine/subjects.ts';
import { auditApproval } from '../engine/tool-batch.ts';
import { addTurnUsage } from '../engine/turn-run.ts';
import { type AuditedCall, NO_TURN_USAGE } from '../engine/turn-state.ts';
import {
  executeTool,
  invalidArguments,
  proposeCall,
  type ToolContext,
  type ToolOutcome,
  type ToolServices,
} from '../tools/tool.ts';
import { type DirectTool, DirectToolCatalog } from './direct-tools.ts';

export interface DirectCallDeps {
  subjects: SubjectCatalog;
  tools: DirectToolCatalog;
  services: ToolServices;
  llm: LlmGateway;
}

/** Direct calls on the engine's packs, services and models. */
export function directCallDeps(engine: AgentEngine): DirectCallDeps {
  const { subjects, services, llm } = engine;
  return { subjects, tools: new DirectToolCatalog(subjects), services, llm };
}

export interface DirectCall {
  name: string;
  arguments: unknown;
  /** Who called, for the audit in place of a model (`mcp`). */
  caller: string;
  signal?: AbortSignal;
}

/** What a direct call came to; every one that was decided is audited as a run (`runId`). */
export type DirectCallOutcome =
  | { kind: 'done'; result: unknown; runId: string }
  | { kind: 'failed'; error: string; runId: string }
  | { kind: 'refused'; reason: string; runId: string };

/**
 * A call by a program with no conversation and no person to ask (an MCP client, whose own person
 * already agreed to it): decided as every call is, with the caller's permission rules. What would
 * ask runs only under an allow rule, and the refusal names the rule to add. Unknown tools and
 * invalid arguments throw, naming the field: nothing was decided, so nothing is audited.
 */
export async function callDirectly(deps: DirectCallDeps, access: OrgAccess, call: DirectCall): Promise<DirectCallOutcome> {
  const entry = deps.tools.get(call.name);
  const { subject, toolInput } = deps.tools.splitInput(entry, call.arguments);
  const checked = entry.tool.input.safeParse(toolInput);
  if (!checked.success) throw invalidInput(invalidArguments(entry.tool, checked.error));
  const own = subject ?? { kind: 'organization', id: access.orgId };
  let usage = { ...NO_TURN_USAGE };
  const context: ToolContext = {
    access,
    subject: own,
    services: deps.services,
    workingState: {},
    // No modelId: a tool that calls a model uses the organization's default, as a request naming none does.
    llm: deps.llm,
    abortSignal: call.signal ?? new AbortController().signal,
    addUsage: (used: TokenUsage, costUsd: number | null) => {
      usage = addTurnUsage(usage, used, costUsd);
    },
  };
  const started = new Date();
  // Rules match the call as the caller made it: a rule may name the subject argument (project_id).
  const decision = await decide(
    entry.tool,
    call.arguments ?? {},
    { autoApprove: false, autoApprovedTools: [], rules: await directRules(deps, access) },
    context,
  );
  const audit = async (decided: CallDecision, outcome: ToolOutcome, reason: string): Promise<string> => {
    const audited: AuditedCall = {
      round_index: 0,
      call_id: newId(),
      name: call.name,
      arguments: call.arguments,
      approval: auditApproval(decided, entry.tool),
      decision: decided,
      reason,
      ...(decision.ruleId === undefined ? {} : { rule_id: decision.ruleId }),
      approved_by: null,
      success: outcome.success,
      ...(outcome.success ? { output: outcome.result } : { error: outcome.error }),
      started_at: started.toISOString(),
      duration_ms: Date.now() - started.getTime(),
    };
    return recordDirectCall(deps.services.db, access, {
      subject: own,
      caller: call.caller,
      status: decided === 'denied' ? 'denied' : outcome.success ? 'completed' : 'failed',
      call: audited,
      usage,
    });
  };
  if (decision.effect !== 'allow') {
    const reason = decision.effect === 'deny' ? decision.reason : askRefusal(entry, decision.reason, access.orgId);
    return { kind: 'refused', reason, runId: await audit('denied', { success: false, error: reason }, reason) };
  }
  const outcome = await run(deps, entry, context, subject, toolInput);
  const runId = await audit('allowed', outcome, decision.reason);
  return outcome.success ? { kind: 'done', result: outcome.result, runId } : { kind: 'failed', error: outcome.error, runId };
}

/**
 * The subject named by the call is checked first (another organization's is not found); a tool that
 * shows its change first computes it here too, and the run applies exactly that.
 */
async function run(
  deps: DirectCallDeps,
  entry: DirectTool,
  context: ToolContext,
  subject: Subject | null,
  input: unknown,
): Promise<ToolOutcome> {
  if (subject) {
    try {
      await deps.subjects.find(deps.services, context.access, subject);
    } catch (error) {
      if (isDomainError(error)) return { success: false, error: error.message };
      throw error;
    }
  }
  if (!entry.tool.propose) return executeTool(entry.tool, context, input);
  const proposal = await proposeCall(entry.tool, context, input);
  if (!proposal.success) return proposal;
  return executeTool(entry.tool, { ...context, proposal: proposal.result }, input);
}

/**
 * The caller's rules, less one that would allow everything: a run with no person watching never
 * gets every write, so its allow rules must name what they allow (a tool, or a pattern).
 */
async function directRules(deps: DirectCallDeps, access: OrgAccess): Promise<PermissionRule[]> {
  const rules = await rulesFor(deps.services.db, access.orgId, access.userId);
  return rules.filter((rule) => !allowsEverything(rule));
}

/** Why a call that would ask a person is refused, and the rule that would let it run. */
function askRefusal(entry: DirectTool, reason: string, orgId: string): string {
  const name = entry.tool.name;
  const example = entry.subjectArgument ? `, "pattern": {"${entry.subjectArgument.name}": "<id>"}` : '';
  return (
    `Refused: ${reason}, and a direct call has no one here to approve it, so it runs only under an allow rule that names what it allows (a rule allowing everything does not count here). ` +
    `To allow it, add the rule {"tool": "${name}", "effect": "allow"} in Settings → Rules or with ` +
    `POST /v0/orgs/${orgId}/permission-rules (add a pattern to allow only some calls, e.g. {"tool": "${name}", "effect": "allow"${example}}), then call again.`
  );
}
