import { invalidInput, type Notices, type OrgAccess } from '@docagent/core';
import type { ThreadStore } from '../threads/thread-store.ts';
import type { ToolServices } from '../tools/tool.ts';
import { type EventSink, outputOf, type TurnOutput, type TurnResult } from './events.ts';
import type { LlmGateway } from './llm-gateway.ts';
import type { Pack, Subject } from './pack.ts';
import { reactStrategy } from './strategies/react.ts';
import type { Strategy } from './strategy.ts';
import type { SubjectCatalog } from './subjects.ts';
import type { Decisions } from './tool-batch.ts';
import { TurnAdmission } from './turn-admission.ts';
import { TurnHeartbeat } from './turn-heartbeat.ts';
import type { ContinueTurnInput, StartTurnInput, StopOutcome } from './turn-inputs.ts';
import { TurnJournal } from './turn-journal.ts';
import { type LoopParts, TurnRun } from './turn-run.ts';
import { runTurn } from './turn-runner.ts';
import { NO_TURN_USAGE, type PendingBatch, resultOf, type StoredMessages, type Turn } from './turn-state.ts';
import type { TurnStore } from './turn-store.ts';

export const DEFAULT_MAX_STEPS = 10;
export const MAX_STEPS_LIMIT = 50;

export interface EngineDeps {
  llm: LlmGateway;
  subjects: SubjectCatalog;
  turns: TurnStore;
  threads: ThreadStore;
  services: ToolServices;
  /** How often a running turn's heartbeat is renewed (a third of the silence that marks a turn dead). */
  heartbeatMs: number;
  /** The loop strategies by name; react when a turn names none. */
  strategies?: Strategy[];
  /**
   * How a stop reaches a turn that runs in another engine (another process): at once, aborting
   * its model call in flight. Without it, such a turn stops at its next safe point or heartbeat.
   */
  notices?: Notices;
  /** How many turns start at once (TurnAdmission); its default otherwise. */
  turnStartsAtOnce?: number;
}

/** The channel of stop notices; the payload is the turn's id. */
const TURN_STOPS = 'docagent_turn_stops';

/**
 * The agent engine: starts turns, continues paused ones, stops running ones. The same code
 * serves interactive chat (HTTP, SSE) and headless runs (jobs); transports only see events.
 */
export class AgentEngine {
  private readonly deps: EngineDeps;
  private readonly parts: LoopParts;
  private readonly strategies: Map<string, Strategy>;
  /** Turns running in this process, so a stop reaches their in-flight LLM call at once. */
  private readonly running: TurnHeartbeat;
  private readonly admission: TurnAdmission;

  constructor(deps: EngineDeps) {
    this.deps = deps;
    const journal = new TurnJournal(deps.services.db, deps.turns, deps.threads);
    this.parts = { llm: deps.llm, services: deps.services, turns: deps.turns, journal };
    this.strategies = new Map((deps.strategies ?? [reactStrategy]).map((s) => [s.name, s]));
    this.running = new TurnHeartbeat(deps.turns, deps.heartbeatMs);
    this.admission = new TurnAdmission(deps.turnStartsAtOnce);
    // An engine lives as long as its process; the listener goes when the database closes.
    deps.notices?.listen(TURN_STOPS, (turnId) => this.running.get(turnId)?.abort());
  }

  get subjects(): SubjectCatalog {
    return this.deps.subjects;
  }

  get services(): ToolServices {
    return this.deps.services;
  }

  get llm(): LlmGateway {
    return this.deps.llm;
  }

  strategyNames(): string[] {
    return [...this.strategies.keys()];
  }

  private strategy(name: string): Strategy {
    const strategy = this.strategies.get(name);
    if (!strategy)
      throw invalidInput(`strategy must be one of: ${this.strategyNames().join(', ')} (got "${name.slice(0, 40)}").`);
    return strategy;
  }

  async start(input: StartTurnInput, output: EventSink | TurnOutput, signal?: AbortSignal): Promise<TurnResult> {
    const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_STEPS_LIMIT) {
      throw invalidInput(`max_steps must be a whole number from 1 to ${MAX_STEPS_LIMIT}.`);
    }
    const strategy = this.strategy(input.strategy ?? 'react');
    const tools = this.deps.subjects.toolsOf(input.subject.kind);
    const unknown = [...(input.autoApprovedTools ?? []), ...(input.declaredWrites ?? []).map((w) => w.tool)].filter(
      (name) => !tools.get(name),
    );
    if (unknown.length > 0) throw invalidInput(`The turn names unknown tools: ${unknown.join(', ')}.`);
    if (input.declaredWrites && (input.autoApprove || input.autoApprovedTools?.length)) {
      throw new Error('A run with declared writes makes only those: it cannot also auto-approve.');
    }
    // The turn holds its place among those starting until its first model call goes out
    // (TurnRun.callModel) or it ends before one.
    const leave = await this.admission.enter();
    try {
      return await this.startAdmitted(input, output, signal, { strategy, maxSteps, leave });
    } finally {
      leave();
    }
  }

  private async startAdmitted(
    input: StartTurnInput,
    output: EventSink | TurnOutput,
    signal: AbortSignal | undefined,
    admitted: { strategy: Strategy; maxSteps: number; leave: () => void },
  ): Promise<TurnResult> {
    const { strategy, maxSteps, leave } = admitted;
    const llm = this.deps.llm.forRun();
    const model = await llm.resolve(input.access.orgId, input.model);
    const mentions = await this.deps.subjects.resolveMentions(
      this.deps.services,
      input.access,
      input.subject,
      input.mentions ?? [],
    );
    const turn = await this.parts.journal.open({
      orgId: input.access.orgId,
      userId: input.access.userId,
      subject: input.subject,
      threadId: input.threadId ?? null,
      messages: input.messages,
      workingState: input.workingState ?? {},
      settings: {
        model,
        maxSteps,
        strategy: strategy.name,
        autoApprove: input.autoApprove ?? false,
        autoApprovedTools: input.autoApprovedTools ?? [],
        ...(input.declaredWrites ? { declaredWrites: input.declaredWrites } : {}),
        ...(input.planMode ? { planMode: true } : {}),
        mentions,
      },
      progress: { steps: 0, text: '', thinking: '', executedRounds: [], usage: { ...NO_TURN_USAGE } },
    });
    let stored: StoredMessages = { stored: turn.messages.length, valid: turn.messages.length };
    if (input.readThread) {
      try {
        const thread = await input.readThread();
        turn.messages = thread.messages;
        turn.workingState = thread.workingState;
        stored = thread.stored;
      } catch (error) {
        await this.deps.turns.discard(turn.id);
        throw error;
      }
    }
    const out = outputOf(output);
    await out.emit({
      type: 'turn_started',
      turn_id: turn.id,
      thread_id: turn.threadId,
      model,
      max_steps: maxSteps,
      strategy: strategy.name,
    });
    return this.withAbort(turn.id, signal, async (s) => {
      // A turn this call just opened was asked to stop only if a stop came within these few
      // milliseconds from another process; its first batch's stop check still sees that one.
      const run = this.runOf(turn, input.access, out, llm, s, stored, { stop: false, admitted: leave });
      await strategy.begin?.(run);
      return runTurn(strategy, run);
    });
  }

  async continue(input: ContinueTurnInput, output: EventSink | TurnOutput, signal?: AbortSignal): Promise<TurnResult> {
    const turn = await this.deps.turns.claimPaused(input.turnId, input.access, input.subject);
    const pending = turn.pending;
    const known = new Set(pending?.calls.map((c) => c.id));
    const strangers = input.approvals.filter((a) => !known.has(a.callId)).map((a) => a.callId);
    const problem = !pending
      ? `Turn ${turn.id} has nothing pending to continue.`
      : strangers.length > 0
        ? `approvals name call ids that are not pending in this turn: ${strangers.join(', ')}.`
        : undecidedProblem(pending, input);
    if (problem) {
      // Give the turn back untouched: a typo in a call id must not cost the person the turn.
      turn.status = 'paused';
      await this.deps.turns.save(turn);
      throw invalidInput(problem);
    }
    const decisions: Decisions = {
      approvals: new Map(input.approvals.map((a) => [a.callId, { approved: a.approved, arguments: a.arguments }])),
      answer: input.input,
    };
    return this.resume(turn, input.access, decisions, outputOf(output), signal);
  }

  private async resume(
    turn: Turn,
    access: OrgAccess,
    decisions: Decisions,
    output: TurnOutput,
    signal: AbortSignal | undefined,
  ): Promise<TurnResult> {
    const strategy = this.strategy(turn.settings.strategy);
    turn.messages = await this.parts.journal.messagesOf(turn);
    const stored = { stored: turn.messages.length, valid: turn.messages.length };
    await output.emit({
      type: 'turn_started',
      turn_id: turn.id,
      thread_id: turn.threadId,
      model: turn.settings.model,
      max_steps: turn.settings.maxSteps,
      strategy: strategy.name,
    });
    return this.withAbort(turn.id, signal, (s) =>
      runTurn(strategy, this.runOf(turn, access, output, this.deps.llm.forRun(), s, stored), decisions),
    );
  }

  private runOf(
    turn: Turn,
    access: OrgAccess,
    output: TurnOutput,
    llm: LlmGateway,
    signal: AbortSignal,
    stored: StoredMessages,
    start: { stop?: boolean; admitted?: () => void } = {},
  ): TurnRun {
    const { subjects } = this.deps;
    return new TurnRun({
      parts: this.parts,
      turn,
      access,
      output,
      llm,
      signal,
      tools: subjects.toolsOf(turn.subject.kind),
      toolSet: subjects.toolSetOf(turn.subject.kind),
      packs: subjects.packsOf(turn.subject.kind) as Pack[],
      stored,
      ...start,
    });
  }

  sweepExpiredTurns(): Promise<number> {
    return this.deps.turns.sweep();
  }

  /** Ends the running turns whose process died (silent since `silentSince`); see TurnStore.reapOrphans. */
  async reapOrphanedTurns(silentSince: Date): Promise<Turn[]> {
    const reaped = await this.deps.turns.reapOrphans(
      silentSince,
      'The server running this turn stopped before the turn ended. The steps it finished are kept in the thread; send your message again to go on.',
    );
    for (const turn of reaped) await this.parts.journal.recordEnd(turn);
    return reaped;
  }

  /**
   * Ends the turns whose question (request_input) waited past its time; each comes with its
   * question and the body its followers get.
   */
  async endUnansweredQuestions(): Promise<Array<{ turn: Turn; question: string; result: TurnResult }>> {
    const ended = await this.deps.turns.endUnansweredQuestions();
    for (const { turn, question } of ended) {
      turn.progress.text = `No answer to "${question}" came in time; the turn ended. Send a message to go on.`;
      await this.parts.journal.recordEnd(turn);
    }
    return ended.map(({ turn, question }) => ({ turn, question, result: resultOf(turn) }));
  }

  /** A turn of this user (on this subject, when named), e.g. for replaying its frames. */
  turnOf(turnId: string, access: OrgAccess, subject?: Subject) {
    return this.deps.turns.get(turnId, access, subject);
  }

  /**
   * Stops a turn: a running one at once, its model call in flight aborted (when it runs in another
   * process, through a stop notice, and in any case at its next safe point, which reads the flag);
   * a paused one now (its pending calls get the "stopped" result, through `output`). A turn that
   * already ended says how it ended.
   */
  async stop(turnId: string, access: OrgAccess, output: EventSink | TurnOutput): Promise<StopOutcome> {
    const found = await this.deps.turns.requestStop(turnId, access);
    switch (found.status) {
      case 'running': {
        const here = this.running.get(turnId);
        if (here) {
          here.abort();
          return {
            status: 'stopping',
            detail: `Turn ${turnId} is stopping: its model call in flight is aborted; finished steps are kept.`,
          };
        }
        // The flag is set: a notice lost on the way only makes the stop wait for the turn's next safe point.
        const { notices } = this.deps;
        await notices?.notify(TURN_STOPS, turnId).catch(() => {});
        const when = notices
          ? 'which is told to stop it now (at the latest before its next step)'
          : 'where it stops before its next step';
        return {
          status: 'stopping',
          detail: `Turn ${turnId} runs in another server process, ${when}; finished steps are kept.`,
        };
      }
      case 'paused': {
        const turn = await this.deps.turns.claimPaused(turnId, access, found.subject).catch(() => undefined);
        // Continued or expired meanwhile: the stop request stands for a running one.
        if (!turn)
          return { status: 'stopping', detail: `Turn ${turnId} was continued meanwhile; it stops at its next safe point.` };
        await this.resume(turn, access, { approvals: new Map() }, outputOf(output), undefined);
        return { status: 'stopped', detail: `Turn ${turnId} was waiting and is now stopped; its pending calls did not run.` };
      }
      case 'failed':
        return { status: 'failed', detail: `Turn ${turnId} had already ended: it failed. ${found.error ?? ''}`.trim() };
      default:
        return {
          status: found.status === 'stopped' ? 'stopped' : 'finished',
          detail: `Turn ${turnId} had already ended (${found.status}).`,
        };
    }
  }

  private async withAbort<T>(
    turnId: string,
    outer: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (outer?.aborted) controller.abort();
    this.running.add(turnId, controller);
    try {
      return await run(controller.signal);
    } finally {
      this.running.delete(turnId);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }
}

/** A continuation that decides nothing is refused, naming what waits, rather than rejecting it all. */
function undecidedProblem(pending: PendingBatch, input: ContinueTurnInput): string | null {
  if (pending.kind === 'input') {
    return input.input === undefined
      ? `Turn ${input.turnId} waits for an answer to its question ("${pending.question}"): send it as input.`
      : null;
  }
  if (input.approvals.length > 0) return null;
  const calls = pending.calls.map((c) => `${c.name} (${c.id})`).join(', ');
  return `approvals is empty, but turn ${input.turnId} waits for a decision on: ${calls}. Approve or reject each call, or stop the turn.`;
}
