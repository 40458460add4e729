import { rulesAlong } from '@docagent/core';
import type { ModelMessage, ToolResultPart } from 'ai';
import { executeTool, proposeCall, type ToolDefinition, type ToolOutcome } from '../tools/tool.ts';
import { REQUEST_INPUT } from './control-tools.ts';
import { decide, type Permissions } from './decision.ts';
import type { CallDecision, ToolCallInfo } from './events.ts';
import { withCallInputs } from './history.ts';
import type { ModelToolCall } from './step.ts';
import type { TurnRun } from './turn-run.ts';
import type { AuditedCall, PendingBatch } from './turn-state.ts';
import { stopFlagOf } from './turn-store.ts';

const rulesAndStopFlag = rulesAlong(stopFlagOf);

export const REJECTED = 'User rejected this action.';
export const STOPPED = 'Stopped by the user before this call ran.';
/** What one tool result may put into the history; the client still gets it whole. */
export const HISTORY_RESULT_CHARS = 20_000;

/**
 * What happens to one call of a batch, decided once before any of the batch runs; `decision` is
 * what the tool_result frame and the audit say of it.
 */
type Verdict =
  | { kind: 'run'; tool: ToolDefinition; decision: 'allowed' | 'approved'; reason: string; ruleId?: string }
  | { kind: 'ask'; tool: ToolDefinition; reason: string }
  | { kind: 'answer'; decision: 'allowed'; reason: string }
  | { kind: 'refuse'; error: string; decision: 'allowed' | 'rejected' | 'denied'; reason: string; ruleId?: string };

export interface PlannedCall {
  call: ModelToolCall;
  /** The arguments the model proposed, when the person edited them. */
  proposed?: unknown;
  verdict: Verdict;
}

/** What the person decided about a paused batch. */
export interface Decisions {
  approvals: Map<string, { approved: boolean; arguments?: unknown }>;
  /** The answer to a `request_input` question. */
  answer?: string;
}

/** How a strategy reports a batch to its clients (react and roa have their own frames). */
export interface BatchReporter {
  /** Before any call runs: the calls that will run. */
  starting(calls: ToolCallInfo[]): Promise<void>;
  /** Just before one call runs. */
  callStarting?(call: ToolCallInfo): Promise<void>;
  /** Each call, in order, once it ran (or was refused). */
  finished(call: ToolCallInfo, outcome: ToolOutcome, decision: CallDecision): Promise<void>;
}

export const infoOf = (c: ModelToolCall): ToolCallInfo => ({
  id: c.id,
  name: c.name,
  arguments: c.input,
  ...(c.proposal !== undefined ? { proposal: c.proposal } : {}),
});

/**
 * Decides every call of a batch before any of it runs. On continuing a paused batch the same
 * decisions are made again, except that what the person approved runs, with their arguments
 * (decided again: edited arguments may not reach what the original ones could not).
 */
export async function planBatch(run: TurnRun, calls: ModelToolCall[], decisions?: Decisions): Promise<PlannedCall[]> {
  const { settings, orgId, userId, id } = run.turn;
  // Read for every batch: a rule a person adds while the turn waits decides its continuation. The
  // turn's stop flag comes with them, for the stop check before the batch's first call.
  const { rules, along: stop } = await rulesAndStopFlag(run.toolContext().services.db, orgId, userId, id);
  run.stopRead(stop);
  const permissions: Permissions = {
    autoApprove: settings.autoApprove,
    autoApprovedTools: settings.autoApprovedTools,
    declaredWrites: settings.declaredWrites,
    rules,
    planMode: settings.planMode,
  };
  const planned: PlannedCall[] = [];
  for (const original of calls) {
    const approval = decisions?.approvals.get(original.id);
    const edited = approval?.arguments !== undefined;
    const call = edited ? { ...original, input: approval.arguments } : original;
    const decided = await verdictOf(run, call, permissions, decisions && (approval ?? { approved: false }));
    const { proposal, verdict } = await withProposal(run, call, decided, original.input);
    planned.push({ call: { ...call, proposal }, verdict, ...(edited ? { proposed: original.input } : {}) });
  }
  return planned;
}

/**
 * A call that will run or ask, of a tool that shows what it will do, gets its proposal now, once:
 * a paused call keeps the one the person saw. One that cannot be made fails the call.
 */
async function withProposal(
  run: TurnRun,
  call: ModelToolCall,
  verdict: Verdict,
  proposedInput: unknown,
): Promise<{ proposal: unknown; verdict: Verdict }> {
  if ((verdict.kind !== 'run' && verdict.kind !== 'ask') || !verdict.tool.propose) return { proposal: undefined, verdict };
  const refused = (error: string): { proposal: undefined; verdict: Verdict } => ({
    proposal: undefined,
    verdict: { kind: 'refuse', error, decision: 'allowed', reason: 'its proposal could not be made' },
  });
  if (JSON.stringify(call.input) !== JSON.stringify(proposedInput)) {
    return refused(
      `${call.name} shows what it will change before approval, so its arguments cannot be edited then: the person rejected this proposal; ask again with what they want changed.`,
    );
  }
  if (call.proposal !== undefined) return { proposal: call.proposal, verdict };
  const outcome = await proposeCall(verdict.tool, run.toolContext(), call.input);
  return outcome.success ? { proposal: outcome.result, verdict } : refused(outcome.error);
}

/** `approval` is the person's word on this call once they decided the batch (unlisted: rejected). */
async function verdictOf(
  run: TurnRun,
  call: ModelToolCall,
  permissions: Permissions,
  approval: { approved: boolean } | undefined,
): Promise<Verdict> {
  const failed = (error: string): Verdict => ({ kind: 'refuse', error, decision: 'allowed', reason: 'the call is invalid' });
  if (call.invalid) return failed(call.invalid);
  if (call.name === REQUEST_INPUT) return { kind: 'answer', decision: 'allowed', reason: 'a question to the person' };
  const tool = run.tools.get(call.name);
  if (!tool) {
    const known = run.tools.all().map((t) => t.name);
    return failed(`There is no tool named ${call.name}. The tools are: ${known.join(', ')}.`);
  }
  const decision = await decide(tool, call.input, permissions, run.toolContext());
  const rule = decision.ruleId === undefined ? {} : { ruleId: decision.ruleId };
  if (decision.effect === 'allow') return { kind: 'run', tool, decision: 'allowed', reason: decision.reason, ...rule };
  if (decision.effect === 'deny') {
    return { kind: 'refuse', error: decision.reason, decision: 'denied', reason: decision.reason, ...rule };
  }
  if (approval === undefined) return { kind: 'ask', tool, reason: decision.reason };
  if (approval.approved) return { kind: 'run', tool, decision: 'approved', reason: 'approved by the person' };
  return { kind: 'refuse', error: REJECTED, decision: 'rejected', reason: 'rejected by the person' };
}

/** The batch waits for the person when it holds a question or a call that asks. */
export function pendingFor(plan: PlannedCall[], roundIndex: number): PendingBatch | null {
  const calls = plan.map(({ call }) => infoOf(call));
  const question = plan.find(({ verdict }) => verdict.kind === 'answer')?.call;
  if (question) {
    const asked = (question.input as { question?: unknown })?.question;
    return {
      kind: 'input',
      roundIndex,
      calls,
      callId: question.id,
      question: typeof asked === 'string' ? asked : 'The agent needs your input.',
    };
  }
  return plan.some(({ verdict }) => verdict.kind === 'ask') ? { kind: 'approval', roundIndex, calls } : null;
}

/** The calls of a paused batch, as the model asked for them. */
export const callsOf = (pending: PendingBatch): ModelToolCall[] =>
  pending.calls.map((c) => ({ id: c.id, name: c.name, input: c.arguments, proposal: c.proposal }));

/**
 * Runs a planned batch in order and appends its results to the history; true when a stop cut it
 * short (the rest got a "stopped" result, so the history stays valid).
 */
export async function runBatch(
  run: TurnRun,
  roundIndex: number,
  plan: PlannedCall[],
  decisions: Decisions,
  report: BatchReporter,
): Promise<boolean> {
  const { turn } = run;
  const executed = plan.filter(({ verdict }) => verdict.kind === 'run').map(({ call }) => infoOf(call));
  const edited = new Map(plan.filter((p) => 'proposed' in p).map(({ call }) => [call.id, call.input]));
  if (edited.size > 0) {
    turn.messages = withCallInputs(turn.messages, edited);
    // The message holding the edited calls is stored already: it is written again.
    run.stored.valid = Math.min(run.stored.valid, firstMessageCalling(turn.messages, edited));
  }
  await report.starting(executed);
  const results: ToolResultPart[] = [];
  let stopped = false;
  for (const { call, verdict } of plan) {
    const started = new Date();
    stopped = stopped || (await run.stopWanted());
    if (!stopped && verdict.kind === 'run') await report.callStarting?.(infoOf(call));
    const outcome: ToolOutcome = stopped
      ? { success: false, error: STOPPED }
      : await outcomeOf(run, verdict, call, decisions.answer);
    const decision: CallDecision = stopped ? 'stopped' : verdict.kind === 'ask' ? 'rejected' : verdict.decision;
    run.audited({
      round_index: roundIndex,
      call_id: call.id,
      name: call.name,
      arguments: call.input,
      approval: auditApproval(decision, verdict.kind === 'run' ? verdict.tool : undefined),
      decision,
      reason: stopped ? 'stopped before this call ran' : verdict.reason,
      ...(!stopped && 'ruleId' in verdict && verdict.ruleId !== undefined ? { rule_id: verdict.ruleId } : {}),
      approved_by: decision === 'approved' ? turn.userId : null,
      success: outcome.success,
      ...(outcome.success ? { output: outcome.result } : { error: outcome.error }),
      started_at: started.toISOString(),
      duration_ms: Date.now() - started.getTime(),
    });
    results.push({
      type: 'tool-result',
      toolCallId: call.id,
      toolName: call.name,
      output: outcome.success
        ? { type: 'json', value: forHistory(outcome.result) as never }
        : { type: 'error-text', value: outcome.error },
      // Kept with the stored history so a reloaded conversation shows how the call was decided;
      // history.ts drops it before the parts go to a provider.
      providerOptions: { docagent: { decision } },
    });
    await report.finished(infoOf(call), outcome, decision);
  }
  turn.messages.push({ role: 'tool', content: results } as ModelMessage);
  turn.progress.executedRounds.push({ round_index: roundIndex, tool_calls: executed });
  return stopped;
}

async function outcomeOf(run: TurnRun, verdict: Verdict, call: ModelToolCall, answer: string | undefined): Promise<ToolOutcome> {
  switch (verdict.kind) {
    case 'refuse':
      return { success: false, error: verdict.error };
    case 'ask':
      return { success: false, error: REJECTED };
    case 'answer':
      return answer === undefined
        ? { success: false, error: 'The person gave no answer.' }
        : { success: true, result: { answer } };
    case 'run':
      return executeTool(verdict.tool, { ...run.toolContext(), proposal: call.proposal }, call.input);
  }
}

/** A large result enters the history shortened, with a note saying how to get the rest. */
export function forHistory(result: unknown): unknown {
  const text = JSON.stringify(result ?? null);
  if (text.length <= HISTORY_RESULT_CHARS) return result ?? null;
  return {
    truncated: true,
    shown: text.slice(0, HISTORY_RESULT_CHARS),
    note: `The result has ${text.length} characters; only the first ${HISTORY_RESULT_CHARS} are kept here. Ask the tool for less at a time (a page range, skip and limit) to read the rest.`,
  };
}

function firstMessageCalling(messages: ModelMessage[], callIds: Map<string, unknown>): number {
  const index = messages.findIndex(
    (m) =>
      m.role === 'assistant' &&
      Array.isArray(m.content) &&
      m.content.some((p) => p.type === 'tool-call' && callIds.has(p.toolCallId)),
  );
  return index === -1 ? messages.length : index;
}

/**
 * How the audit names a call's approval (an older field, kept for readers of run records): a
 * write allowed ahead ran by policy; `ran` is the tool when the call ran.
 */
export function auditApproval(decision: CallDecision, ran: ToolDefinition | undefined): AuditedCall['approval'] {
  switch (decision) {
    case 'allowed':
      return ran?.access === 'read_write' ? 'policy' : 'not_needed';
    case 'approved':
      return 'user';
    default:
      return decision;
  }
}
