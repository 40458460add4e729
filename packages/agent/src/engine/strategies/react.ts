import type { ToolOutcome } from '../../tools/tool.ts';
import type { AgentEvent, CallDecision, ToolCallInfo } from '../events.ts';
import { runModelStep } from '../model-step.ts';
import type { Next, Strategy } from '../strategy.ts';
import { type BatchReporter, callsOf, type Decisions, pendingFor, planBatch, runBatch } from '../tool-batch.ts';
import type { TurnRun } from '../turn-run.ts';

const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** DocRouter's frames for a batch: tool_calls, a tool_result per call, and round_executed, which the step's commit sends. */
function reactReporter(run: TurnRun, roundIndex: number): BatchReporter & { done(): AgentEvent } {
  let executed: ToolCallInfo[] = [];
  return {
    async starting(calls) {
      executed = calls;
      if (calls.length > 0) await run.emit({ type: 'tool_calls', round_index: roundIndex, tool_calls: calls });
    },
    async finished(call: ToolCallInfo, outcome: ToolOutcome, decision: CallDecision) {
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
    },
    done: () => ({
      type: 'round_executed',
      round_index: roundIndex,
      thinking: run.turn.progress.thinking,
      tool_calls: executed,
    }),
  };
}

/** Runs a decided batch, reports it and writes the step; stopped when a stop cut it short. */
async function executeStep(
  run: TurnRun,
  roundIndex: number,
  plan: Awaited<ReturnType<typeof planBatch>>,
  decisions: Decisions,
): Promise<Next> {
  const report = reactReporter(run, roundIndex);
  const stopped = await runBatch(run, roundIndex, plan, decisions, report);
  await run.commit([report.done()]);
  return stopped ? { kind: 'stopped', reason: 'user' } : { kind: 'again' };
}

/**
 * The "react" strategy (DocRouter's): a step is one streamed LLM call with the subject's tools,
 * then the calls it asked for under their decisions. A text-only answer is final.
 */
export const reactStrategy: Strategy = {
  name: 'react',

  async step(run) {
    const { turn } = run;
    const roundIndex = turn.progress.steps;
    const step = await runModelStep(run, roundIndex);
    turn.progress.steps += 1;
    turn.progress.text = step.text;
    turn.progress.thinking = step.thinking;
    turn.messages.push(...step.responseMessages);
    if (step.toolCalls.length === 0) return { kind: 'final' };
    const plan = await planBatch(run, step.toolCalls);
    const pending = pendingFor(plan, roundIndex);
    if (pending) return { kind: 'pause', pending };
    return executeStep(run, roundIndex, plan, { approvals: new Map() });
  },

  async resume(run, decisions) {
    const pending = run.turn.pending;
    if (!pending) throw new Error('resume needs a paused turn');
    run.turn.pending = null;
    const plan = await planBatch(run, callsOf(pending), decisions);
    return executeStep(run, pending.roundIndex, plan, decisions);
  },

  paused(run, pending) {
    return [
      pending.kind === 'input'
        ? { type: 'input_request', turn_id: run.turn.id, call_id: pending.callId, question: pending.question }
        : { type: 'pending_tool_calls', turn_id: run.turn.id, tool_calls: pending.calls },
    ];
  },

  end(run, how) {
    const { progress } = run.turn;
    if (how.kind === 'stopped') return [{ type: 'stopped', reason: how.reason }];
    const roundIndex = Math.max(0, progress.steps - 1);
    return [
      { type: 'thinking_done', thinking: progress.thinking, round_index: roundIndex },
      { type: 'assistant_text_done', full_text: progress.text, round_index: roundIndex },
    ];
  },
};
