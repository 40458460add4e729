import { isDomainError } from '@docagent/core';
import type { AgentEvent, TurnResult } from './events.ts';
import type { Next, Strategy } from './strategy.ts';
import type { Decisions } from './tool-batch.ts';
import type { TurnRun } from './turn-run.ts';
import { inTurnSpan } from './turn-span.ts';

/**
 * A turn's lifecycle, the same for every strategy: steps until the strategy says otherwise, the
 * step cap or a stop; then pause, finish or stop, persisted, with the closing frames. An error
 * ends the turn with an `error` frame; what finished steps wrote stays.
 */
export function runTurn(strategy: Strategy, run: TurnRun, decisions?: Decisions): Promise<TurnResult> {
  return inTurnSpan(run, decisions !== undefined, () => stepsOfTurn(strategy, run, decisions));
}

async function stepsOfTurn(strategy: Strategy, run: TurnRun, decisions: Decisions | undefined): Promise<TurnResult> {
  const { turn } = run;
  try {
    let next: Next = decisions ? await strategy.resume(run, decisions) : { kind: 'again' };
    for (;;) {
      if (next.kind === 'pause') return await pause(strategy, run, next.pending);
      if (next.kind === 'final' || next.kind === 'stopped') return await end(strategy, run, next);
      if (await run.stopWanted()) next = { kind: 'stopped', reason: 'user' };
      else if (turn.progress.steps >= turn.settings.maxSteps) next = { kind: 'stopped', reason: 'max_steps' };
      else next = await strategy.step(run);
    }
  } catch (error) {
    if (run.signal.aborted || (error as Error).name === 'AbortError') {
      return end(strategy, run, { kind: 'stopped', reason: 'user' });
    }
    if (isDomainError(error) && error.kind === 'usage_limit') return endWithNotice(strategy, run, error.message);
    turn.status = 'failed';
    turn.progress.error = isDomainError(error) ? error.message : `The agent failed: ${(error as Error).message}`;
    await run.commit([], { failed: true }).catch(() => {});
    announce(run);
    await run.emit({ type: 'error', error: turn.progress.error });
    throw error;
  }
}

async function pause(strategy: Strategy, run: TurnRun, pending: NonNullable<TurnRun['turn']['pending']>) {
  const { turn } = run;
  turn.status = 'paused';
  turn.pending = pending;
  return close(run, strategy.paused(run, pending));
}

async function end(strategy: Strategy, run: TurnRun, how: Extract<Next, { kind: 'final' | 'stopped' }>) {
  const { turn } = run;
  turn.status = how.kind === 'stopped' && how.reason === 'user' ? 'stopped' : 'finished';
  turn.pending = null;
  return close(run, strategy.end(run, how), how.kind === 'stopped' ? { stopped: how.reason } : {});
}

/** Ends the turn with a message of ours (the model could not be asked), kept in the history. */
async function endWithNotice(strategy: Strategy, run: TurnRun, message: string): Promise<TurnResult> {
  const { turn } = run;
  turn.progress.text = message;
  turn.progress.thinking = '';
  turn.messages.push({ role: 'assistant', content: message });
  return end(strategy, run, { kind: 'final' });
}

/**
 * Saves the paused or ended turn with its last frames (the strategy's, `usage`, `done`), which go
 * out once they are stored.
 */
async function close(run: TurnRun, frames: AgentEvent[], extra: Partial<TurnResult> = {}): Promise<TurnResult> {
  const result = { ...run.result(), ...extra };
  await run.commit([...frames, { type: 'usage', ...result.usage }, { type: 'done', result }], {
    committed: () => announce(run),
  });
  return result;
}

/**
 * Tells the process's bus (webhooks) that the stored turn now waits for approval or has ended; a
 * pause for a question (request_input) is no approval and says nothing.
 */
function announce(run: TurnRun): void {
  const { turn } = run;
  const events = run.parts.services.documents.events;
  if (!events || turn.status === 'running') return;
  if (turn.status === 'paused' && turn.pending?.kind !== 'approval') return;
  events.publish({
    type: turn.status === 'paused' ? 'agent.approval_needed' : 'agent.turn_finished',
    orgId: turn.orgId,
    subject: turn.subject,
    turnId: turn.id,
    threadId: turn.threadId,
    userId: turn.userId,
    status: turn.status,
    ...(turn.status === 'paused' ? { calls: (turn.pending?.calls ?? []).map((c) => ({ id: c.id, name: c.name })) } : {}),
    ...(turn.status === 'failed' && turn.progress.error ? { error: turn.progress.error } : {}),
    at: new Date().toISOString(),
  });
}
