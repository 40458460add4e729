import type { AgentEvent } from './events.ts';
import type { Decisions } from './tool-batch.ts';
import type { TurnRun } from './turn-run.ts';
import type { PendingBatch } from './turn-state.ts';

/** What comes after a step: the strategy says it, the turn runner does it. */
export type Next =
  | { kind: 'again' }
  | { kind: 'pause'; pending: PendingBatch }
  | { kind: 'final' }
  | { kind: 'stopped'; reason: 'user' | 'max_steps' };

/**
 * A way of running a turn's steps. The tool batch, the turn's lifecycle and its persistence are
 * the engine's; a strategy only says how one step goes and what comes next.
 */
export interface Strategy {
  name: string;
  /** Frames of a strategy that announces itself when a turn starts (roa: agent_start). */
  begin?(run: TurnRun): Promise<void>;
  /** Runs one step; `progress.steps` counts it. */
  step(run: TurnRun): Promise<Next>;
  /** Goes on with a paused step once the person decided its batch (or answered). */
  resume(run: TurnRun, decisions: Decisions): Promise<Next>;
  /** The strategy's closing frames when the turn ends, before `usage` and `done` (written with the turn's end). */
  end(run: TurnRun, how: Exclude<Next, { kind: 'again' } | { kind: 'pause' }>): AgentEvent[];
  /** The frames telling the person that the turn waits for them (written with the pause). */
  paused(run: TurnRun, pending: PendingBatch): AgentEvent[];
}
