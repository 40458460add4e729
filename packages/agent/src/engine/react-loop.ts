import { addUsage, isDomainError, tokenUsage } from '@docagent/core';
import type { ModelMessage, ToolResultPart, ToolSet } from 'ai';
import { executeTool, type ToolContext, type ToolDefinition, type ToolOutcome, type ToolRegistry } from '../tools/tool.ts';
import { buildSystemMessage, isSmallModel } from './context.ts';
import { REQUEST_INPUT } from './control-tools.ts';
import { type Decision, decide, type Permissions } from './decision.ts';
import type { CallDecision, EventSink, ToolCallInfo, TurnResult, TurnUsage } from './events.ts';
import { withCallInputs } from './history.ts';
import type { LlmGateway } from './llm-gateway.ts';
import { type ModelToolCall, runStep } from './step.ts';
import type { AuditedCall, PendingBatch, Turn, TurnStore } from './turn-store.ts';

export const REJECTED = 'User rejected this action.';

/**
 * What happens to one call of a batch, decided once before any of the batch runs; `decision` is
 * what the tool_result frame and the audit say of it.
 */
type Verdict =
  | { kind: 'run'; tool: ToolDefinition; decision: 'allowed' | 'approved'; reason: string }
  | { kind: 'ask'; tool: ToolDefinition; reason: string }
  | { kind: 'answer'; decision: 'allowed'; reason: string }
  | { kind: 'refuse'; error: string; decision: 'allowed' | 'rejected' | 'denied'; reason: string };

interface PlannedCall {
  call: ModelToolCall;
  /** The arguments the model proposed, when the person edited them. */
  proposed?: unknown;
  verdict: Verdict;
}
export const STOPPED = 'Stopped by the user before this call ran.';

/** What the person decided about a paused batch. */
export interface Decisions {
  approvals: Map<string, { approved: boolean; arguments?: unknown }>;
  /** The answer to a `request_input` question. */
  answer?: string;
}

export interface LoopDeps {
  llm: LlmGateway;
  tools: ToolRegistry;
  /** The tools as the model sees them, built once from the registry. */
  toolSet: ToolSet;
  turns: TurnStore;
  toolContext: Omit<ToolContext, 'workingState' | 'abortSignal'>;
}

interface LoopRun {
  turn: Turn;
  emit: EventSink;
  signal: AbortSignal;
}

const infoOf = (c: ModelToolCall): ToolCallInfo => ({ id: c.id, name: c.name, arguments: c.input });
const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/**
 * The "react" strategy: stream a step, run what the policy allows, persist, repeat until the
 * model answers with text only, the step cap, a stop, or an error. A batch holding a call the
 * person must approve (or a question) pauses the turn before any call of it runs, so that on
 * continuing the batch runs in its original order.
 */
export class ReactLoop {
  private readonly deps: LoopDeps;

  constructor(deps: LoopDeps) {
    this.deps = deps;
  }

  /** Continues a claimed paused turn with the person's decisions, then loops on. */
  async resume(run: LoopRun, decisions: Decisions): Promise<TurnResult> {
    const pending = run.turn.pending;
    if (!pending) throw new Error('resume needs a paused turn');
    const calls = pending.calls.map((c) => ({ id: c.id, name: c.name, input: c.arguments }));
    run.turn.pending = null;
    const plan = await this.plan(run, calls, decisions);
    const stopped = await this.executeBatch(run, pending.roundIndex, plan, decisions);
    await this.deps.turns.save(run.turn);
    if (stopped) return this.finishStopped(run, 'user');
    return this.loop(run);
  }

  async loop(run: LoopRun): Promise<TurnResult> {
    const { turn } = run;
    try {
      for (;;) {
        if (await this.stopWanted(run)) return this.finishStopped(run, 'user');
        if (turn.progress.steps >= turn.settings.maxSteps) return this.finishStopped(run, 'max_steps');
        const roundIndex = turn.progress.steps;
        const step = await this.step(run, roundIndex);
        turn.progress.steps += 1;
        turn.progress.text = step.text;
        turn.progress.thinking = step.thinking;
        turn.messages.push(...step.responseMessages);

        if (step.toolCalls.length === 0) {
          await run.emit({ type: 'thinking_done', thinking: step.thinking, round_index: roundIndex });
          await run.emit({ type: 'assistant_text_done', full_text: step.text, round_index: roundIndex });
          turn.status = 'finished';
          await this.deps.turns.save(turn);
          return this.finish(run, this.result(turn));
        }
        const plan = await this.plan(run, step.toolCalls);
        const pending = pendingFor(plan, roundIndex);
        if (pending) return this.pause(run, pending);
        const stopped = await this.executeBatch(run, roundIndex, plan, { approvals: new Map() });
        await this.deps.turns.save(turn);
        if (stopped) return this.finishStopped(run, 'user');
      }
    } catch (error) {
      if (run.signal.aborted || (error as Error).name === 'AbortError') return this.finishStopped(run, 'user');
      if (isDomainError(error) && error.kind === 'usage_limit') return this.finishWithNotice(run, error.message);
      turn.status = 'failed';
      await this.deps.turns.save(turn).catch(() => {});
      const message = isDomainError(error) ? error.message : `The agent failed: ${(error as Error).message}`;
      await run.emit({ type: 'error', error: message });
      throw error;
    }
  }

  private async step(run: LoopRun, roundIndex: number) {
    const { turn } = run;
    const system = await buildSystemMessage({
      db: this.deps.toolContext.services.db,
      orgId: turn.orgId,
      documentId: turn.documentId,
      modelId: turn.settings.model,
      workingState: turn.workingState,
      mentions: turn.settings.mentions,
    });
    const { value, costUsd } = await this.deps.llm.call(
      { orgId: turn.orgId, model: turn.settings.model, operation: 'agent', documentId: turn.documentId },
      async (context) => {
        const outcome = await runStep({
          model: context.model,
          modelId: turn.settings.model,
          system,
          messages: turn.messages,
          tools: this.deps.toolSet,
          roundIndex,
          historyBudgetTokens: isSmallModel(turn.settings.model) ? 12_000 : 48_000,
          emit: run.emit,
          abortSignal: run.signal,
          maxRetries: context.maxRetries,
          timeoutMs: context.timeoutMs,
        });
        return { value: outcome, usage: outcome.usage };
      },
    );
    turn.progress.usage = addTurnUsage(turn.progress.usage, value.usage, costUsd);
    return value;
  }

  /**
   * Decides every call of a batch before any of it runs. On continuing a paused batch the same
   * decisions are made again, except that what the person approved runs, with their arguments
   * (decided again: edited arguments may not reach what the original ones could not).
   */
  private async plan(run: LoopRun, calls: ModelToolCall[], decisions?: Decisions): Promise<PlannedCall[]> {
    const { turn } = run;
    const permissions: Permissions = {
      autoApprove: turn.settings.autoApprove,
      autoApprovedTools: turn.settings.autoApprovedTools,
      declaredWrites: turn.settings.declaredWrites,
    };
    const context = this.toolContextOf(run);
    const planned: PlannedCall[] = [];
    for (const original of calls) {
      const approval = decisions?.approvals.get(original.id);
      const edited = approval?.arguments !== undefined;
      const call = edited ? { ...original, input: approval.arguments } : original;
      const verdict = await this.verdictOf(call, permissions, context, decisions && (approval ?? { approved: false }));
      planned.push({ call, verdict, ...(edited ? { proposed: original.input } : {}) });
    }
    return planned;
  }

  /** `approval` is the person's word on this call once they decided the batch (unlisted: rejected). */
  private async verdictOf(
    call: ModelToolCall,
    permissions: Permissions,
    context: ToolContext,
    approval: { approved: boolean } | undefined,
  ): Promise<Verdict> {
    const failed = (error: string): Verdict => ({ kind: 'refuse', error, decision: 'allowed', reason: 'the call is invalid' });
    if (call.invalid) return failed(call.invalid);
    if (call.name === REQUEST_INPUT) return { kind: 'answer', decision: 'allowed', reason: 'a question to the person' };
    const tool = this.deps.tools.get(call.name);
    if (!tool) {
      const known = this.deps.tools.all().map((t) => t.name);
      return failed(`There is no tool named ${call.name}. The tools are: ${known.join(', ')}.`);
    }
    const decision: Decision = await decide(tool, call.input, permissions, context);
    if (decision.effect === 'allow') return { kind: 'run', tool, decision: 'allowed', reason: decision.reason };
    if (decision.effect === 'deny')
      return { kind: 'refuse', error: decision.reason, decision: 'denied', reason: decision.reason };
    if (approval === undefined) return { kind: 'ask', tool, reason: decision.reason };
    if (approval.approved) return { kind: 'run', tool, decision: 'approved', reason: 'approved by the person' };
    return { kind: 'refuse', error: REJECTED, decision: 'rejected', reason: 'rejected by the person' };
  }

  /** Runs a planned batch in order; true when a stop cut it short (the rest got a "stopped" result). */
  private async executeBatch(run: LoopRun, roundIndex: number, plan: PlannedCall[], decisions: Decisions): Promise<boolean> {
    const { turn } = run;
    const executed = plan
      .filter(({ verdict }) => verdict.kind === 'run')
      .map(({ call }) => ({ id: call.id, name: call.name, arguments: call.input }));
    const edited = new Map(plan.filter((p) => 'proposed' in p).map(({ call }) => [call.id, call.input]));
    turn.messages = withCallInputs(turn.messages, edited);
    if (executed.length > 0) await run.emit({ type: 'tool_calls', round_index: roundIndex, tool_calls: executed });
    const results: ToolResultPart[] = [];
    let stopped = false;
    for (const { call, verdict } of plan) {
      const started = new Date();
      stopped = stopped || (await this.stopWanted(run));
      const outcome: ToolOutcome = stopped
        ? { success: false, error: STOPPED }
        : await this.outcomeOf(run, verdict, call.input, decisions.answer);
      const decision: CallDecision = stopped ? 'stopped' : verdict.kind === 'ask' ? 'rejected' : verdict.decision;
      turn.progress.audit.push({
        round_index: roundIndex,
        call_id: call.id,
        name: call.name,
        arguments: call.input,
        approval: auditApproval(decision, verdict),
        decision,
        reason: stopped ? 'stopped before this call ran' : verdict.reason,
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
          ? { type: 'json', value: (outcome.result ?? null) as never }
          : { type: 'error-text', value: outcome.error },
        // Kept with the stored history so a reloaded conversation shows how the call was decided;
        // history.ts drops it before the parts go to a provider.
        providerOptions: { docagent: { decision } },
      });
      await run.emit({
        type: 'tool_result',
        round_index: roundIndex,
        call_id: call.id,
        name: call.name,
        success: outcome.success,
        decision,
        ...(outcome.success ? { result: outcome.result } : { error: outcome.error }),
        preview: preview(outcome.success ? outcome.result : outcome.error),
      });
    }
    turn.messages.push({ role: 'tool', content: results } as ModelMessage);
    turn.progress.executedRounds.push({ round_index: roundIndex, tool_calls: executed });
    await run.emit({ type: 'round_executed', round_index: roundIndex, thinking: turn.progress.thinking, tool_calls: executed });
    return stopped;
  }

  private toolContextOf(run: LoopRun): ToolContext {
    return { ...this.deps.toolContext, workingState: run.turn.workingState, abortSignal: run.signal };
  }

  private async outcomeOf(run: LoopRun, verdict: Verdict, input: unknown, answer: string | undefined): Promise<ToolOutcome> {
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
        return executeTool(verdict.tool, this.toolContextOf(run), input);
    }
  }

  /** Ends the turn with a message of ours (the model could not be asked), kept in the history. */
  private async finishWithNotice(run: LoopRun, message: string): Promise<TurnResult> {
    const { turn } = run;
    const roundIndex = turn.progress.steps;
    turn.progress.text = message;
    turn.progress.thinking = '';
    turn.messages.push({ role: 'assistant', content: message });
    turn.status = 'finished';
    await this.deps.turns.save(turn);
    await run.emit({ type: 'assistant_text_done', full_text: message, round_index: roundIndex });
    return this.finish(run, this.result(turn));
  }

  private async pause(run: LoopRun, pending: PendingBatch): Promise<TurnResult> {
    const { turn } = run;
    turn.status = 'paused';
    turn.pending = pending;
    await this.deps.turns.save(turn);
    if (pending.kind === 'input') {
      await run.emit({ type: 'input_request', turn_id: turn.id, call_id: pending.callId, question: pending.question });
    } else {
      await run.emit({ type: 'pending_tool_calls', turn_id: turn.id, tool_calls: pending.calls });
    }
    return this.finish(run, this.result(turn));
  }

  private async finishStopped(run: LoopRun, reason: 'user' | 'max_steps'): Promise<TurnResult> {
    const { turn } = run;
    turn.status = reason === 'user' ? 'stopped' : 'finished';
    turn.pending = null;
    await this.deps.turns.save(turn);
    await run.emit({ type: 'stopped', reason });
    return this.finish(run, { ...this.result(turn), stopped: reason });
  }

  private async finish(run: LoopRun, result: TurnResult): Promise<TurnResult> {
    await run.emit({ type: 'usage', ...result.usage });
    await run.emit({ type: 'done', result });
    return result;
  }

  private async stopWanted(run: LoopRun): Promise<boolean> {
    return run.signal.aborted || (await this.deps.turns.stopRequested(run.turn.id));
  }

  private result(turn: Turn): TurnResult {
    const base: TurnResult = {
      text: turn.progress.text,
      thinking: turn.progress.thinking,
      working_state: turn.workingState as Record<string, unknown>,
      executed_rounds: turn.progress.executedRounds,
      usage: turn.progress.usage,
    };
    if (turn.status !== 'paused' || !turn.pending) return base;
    return {
      ...base,
      turn_id: turn.id,
      tool_calls: turn.pending.calls,
      ...(turn.pending.kind === 'input'
        ? { input_request: { call_id: turn.pending.callId, question: turn.pending.question } }
        : {}),
    };
  }
}

/** The batch waits for the person when it holds a question or a call that asks. */
function pendingFor(plan: PlannedCall[], roundIndex: number): PendingBatch | null {
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

/** The audit's older field, kept for readers of run records. */
function auditApproval(decision: CallDecision, verdict: Verdict): AuditedCall['approval'] {
  switch (decision) {
    case 'allowed':
      return verdict.kind === 'run' && verdict.tool.access === 'read_write' ? 'policy' : 'not_needed';
    case 'approved':
      return 'user';
    default:
      return decision;
  }
}

function addTurnUsage(total: TurnUsage, usage: Parameters<typeof tokenUsage>[0], costUsd: number | null): TurnUsage {
  const step = tokenUsage(usage);
  const sum = addUsage(
    {
      inputTokens: total.input_tokens,
      outputTokens: total.output_tokens,
      cachedTokens: total.cached_tokens,
      reasoningTokens: total.reasoning_tokens,
    },
    step,
  );
  return {
    input_tokens: sum.inputTokens,
    output_tokens: sum.outputTokens,
    cached_tokens: sum.cachedTokens,
    reasoning_tokens: sum.reasoningTokens,
    cost_usd: total.cost_usd === null || costUsd === null ? null : total.cost_usd + costUsd,
  };
}
