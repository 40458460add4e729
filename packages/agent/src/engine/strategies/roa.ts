import { readFileSync } from 'node:fs';
import { ObserveControl, ReasonControl, splitControl } from '../control-block.ts';
import type { AgentEvent, EventSink } from '../events.ts';
import { runModelStep, runPlainCall } from '../model-step.ts';
import type { Next, Strategy } from '../strategy.ts';
import { type BatchReporter, callsOf, type Decisions, type PlannedCall, pendingFor, planBatch, runBatch } from '../tool-batch.ts';
import type { TurnRun } from '../turn-run.ts';

const prompt = (name: string) => readFileSync(new URL(`../prompts/${name}`, import.meta.url), 'utf8');
const REASON = prompt('roa-reason.md');
const OBSERVE = prompt('roa-observe.md');

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

/** What one step carries between its phases and to the next step (stored with the turn). */
interface RoaState {
  plan?: string;
  observation?: string;
  /** What the act phase said when it called no tool. */
  actText?: string;
}

const stateOf = (run: TurnRun): RoaState => {
  run.turn.progress.strategyState ??= {};
  return run.turn.progress.strategyState as RoaState;
};
/** Steps count from 1 in roa frames; the step being run is the one after those finished. */
const stepNo = (run: TurnRun) => run.turn.progress.steps + 1;

/** Tool frames of seed 003: tool_start before each call, tool_complete or tool_error after. */
function roaReporter(run: TurnRun, step: number): BatchReporter {
  return {
    async starting() {},
    async callStarting(call) {
      await run.emit({ type: 'tool_start', call, step });
    },
    async finished(call, outcome, decision) {
      await run.emit(
        outcome.success
          ? { type: 'tool_complete', call_id: call.id, name: call.name, result: outcome.result, decision, step }
          : { type: 'tool_error', call_id: call.id, name: call.name, error: outcome.error, decision, step },
      );
    },
  };
}

/** Ends the turn with `answer` as the assistant's last message. */
function final(run: TurnRun, answer: string): Next {
  const { turn } = run;
  turn.progress.text = answer;
  turn.progress.phase = undefined;
  turn.messages.push({ role: 'assistant', content: answer });
  return { kind: 'final' };
}

async function reason(run: TurnRun): Promise<Next | null> {
  const { turn } = run;
  const step = stepNo(run);
  turn.progress.phase = 'reason';
  const state = stateOf(run);
  const instruction = fill(REASON, {
    step: String(step),
    max_steps: String(turn.settings.maxSteps),
    observation: state.observation ? `Last observation: ${state.observation}` : 'This is the first step: nothing observed yet.',
    tools:
      run.tools
        .all()
        .map((t) => t.name)
        .join(', ') || 'none',
  });
  const text = await runPlainCall(run, instruction, 'agent');
  const { content, control } = splitControl(text, ReasonControl);
  await run.emit({ type: 'agent_reason', content, step });
  if (control?.finish) {
    turn.progress.steps += 1;
    return final(run, content);
  }
  state.plan = control?.plan ?? content;
  return null;
}

/** The act phase: one tool-calling model call; the batch waits when a call asks or a question is put. */
async function act(run: TurnRun): Promise<Next | null> {
  const { turn } = run;
  turn.progress.phase = 'act';
  const state = stateOf(run);
  // The act's tokens are not frames of their own in roa: its calls and results are.
  const quiet: EventSink = (event) =>
    event.type === 'assistant_text_chunk' || event.type === 'thinking_chunk' ? undefined : run.emit(event);
  const outcome = await runModelStep(run, turn.progress.steps, {
    instruction: `## Act\n\nCarry out this plan now with the tools (call request_input if you need the person to decide something): ${state.plan ?? 'go on with the request'}`,
    emit: quiet,
  });
  if (outcome.toolCalls.length === 0) {
    // Text alone is kept for observe, not as an assistant turn the next call would continue.
    state.actText = outcome.text;
    return null;
  }
  state.actText = undefined;
  turn.messages.push(...outcome.responseMessages);
  const plan = await planBatch(run, outcome.toolCalls);
  const pending = pendingFor(plan, turn.progress.steps);
  if (pending) return { kind: 'pause', pending };
  return runActBatch(run, plan, { approvals: new Map() });
}

async function runActBatch(run: TurnRun, plan: PlannedCall[], decisions: Decisions): Promise<Next | null> {
  const stopped = await runBatch(run, run.turn.progress.steps, plan, decisions, roaReporter(run, stepNo(run)));
  await run.commit();
  return stopped ? { kind: 'stopped', reason: 'user' } : null;
}

async function observe(run: TurnRun): Promise<Next> {
  const { turn } = run;
  const step = stepNo(run);
  turn.progress.phase = 'observe';
  const state = stateOf(run);
  const instruction = fill(OBSERVE, {
    step: String(step),
    max_steps: String(turn.settings.maxSteps),
    act: state.actText
      ? `The act phase called no tool; it said: ${state.actText}`
      : 'The tool calls of the act phase and their results are the last messages above.',
  });
  const text = await runPlainCall(run, instruction, 'agent');
  const { content, control } = splitControl(text, ObserveControl);
  const observed: AgentEvent = { type: 'agent_observe', content, step };
  turn.progress.steps += 1;
  if (control?.should_continue === false) {
    await run.emit(observed);
    return final(run, control.final_answer?.trim() || content);
  }
  state.observation = control?.observation ?? content;
  turn.progress.text = content;
  turn.progress.phase = undefined;
  await run.commit([observed]);
  return { kind: 'again' };
}

/** The phases after act, with a stop looked for at each boundary. */
async function afterAct(run: TurnRun, next: Next | null): Promise<Next> {
  if (next) return next;
  if (await run.stopWanted()) return { kind: 'stopped', reason: 'user' };
  return observe(run);
}

/**
 * The "roa" strategy (seed 003): a step is reason (a plain call that plans), act (one
 * tool-calling call under the same decisions) and observe (a plain call over the results). It
 * ends when reason says finish, observe says not to continue, the step cap, or a stop, which is
 * looked for at each phase boundary and after each tool call.
 */
export const roaStrategy: Strategy = {
  name: 'roa',

  async begin(run) {
    await run.emit({ type: 'agent_start', max_steps: run.turn.settings.maxSteps });
  },

  async step(run) {
    await run.emit({ type: 'agent_turn_start', step: stepNo(run) });
    const reasoned = await reason(run);
    if (reasoned) return reasoned;
    if (await run.stopWanted()) return { kind: 'stopped', reason: 'user' };
    return afterAct(run, await act(run));
  },

  async resume(run, decisions) {
    const pending = run.turn.pending;
    if (!pending) throw new Error('resume needs a paused turn');
    run.turn.pending = null;
    const plan = await planBatch(run, callsOf(pending), decisions);
    return afterAct(run, await runActBatch(run, plan, decisions));
  },

  paused(run, pending) {
    return [
      pending.kind === 'input'
        ? {
            type: 'agent_request_input',
            turn_id: run.turn.id,
            call_id: pending.callId,
            question: pending.question,
            step: stepNo(run),
          }
        : { type: 'pending_tool_calls', turn_id: run.turn.id, tool_calls: pending.calls },
    ];
  },

  end(run, how) {
    const { progress } = run.turn;
    return [
      ...(how.kind === 'stopped' ? [{ type: 'agent_stopped', reason: how.reason } as const] : []),
      { type: 'agent_completion', steps: progress.steps },
      { type: 'response_complete', text: progress.text },
    ];
  },
};
