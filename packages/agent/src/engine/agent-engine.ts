import { invalidInput, type OrgAccess } from '@docagent/core';
import type { ModelMessage, ToolSet } from 'ai';
import type { ToolContext, ToolRegistry, WorkingState } from '../tools/tool.ts';
import type { DeclaredWrite } from './decision.ts';
import type { EventSink, TurnResult } from './events.ts';
import type { LlmGateway } from './llm-gateway.ts';
import { type Mention, resolveMentions } from './mentions.ts';
import { type Decisions, ReactLoop } from './react-loop.ts';
import { toolSetOf } from './step.ts';
import { TurnHeartbeat } from './turn-heartbeat.ts';
import { NO_TURN_USAGE, type PendingBatch, type Turn, type TurnStore } from './turn-store.ts';

export const DEFAULT_MAX_STEPS = 10;
export const MAX_STEPS_LIMIT = 50;

export interface EngineDeps {
  llm: LlmGateway;
  tools: ToolRegistry;
  turns: TurnStore;
  services: ToolContext['services'];
  /** How often a running turn's heartbeat is renewed (a third of the silence that marks a turn dead). */
  heartbeatMs: number;
}

/** What a stop request found, and what became of the turn. */
export interface StopOutcome {
  /** stopping: it runs and stops at its next safe point; stopped: it was paused and is now stopped. */
  status: 'stopping' | 'stopped' | 'finished' | 'failed';
  detail: string;
}

export interface StartTurnInput {
  access: OrgAccess;
  documentId: string;
  threadId?: string | null;
  /** The conversation so far, ending with the person's new message. */
  messages: ModelMessage[];
  model?: string | null;
  maxSteps?: number;
  autoApprove?: boolean;
  autoApprovedTools?: string[];
  /**
   * For a run with no person watching: the only writes it may make (every other write is denied).
   * Auto-approving everything is for a person's own turn and cannot be combined with it.
   */
  declaredWrites?: DeclaredWrite[];
  workingState?: WorkingState;
  mentions?: Mention[];
  /**
   * For a turn on a thread: reads the conversation (ending with the person's new message) and the
   * working state once the turn holds the thread, replacing `messages` and `workingState`. Read
   * any earlier, it could miss the end of the thread's previous turn.
   */
  readThread?: () => Promise<{ messages: ModelMessage[]; workingState: WorkingState }>;
}

export interface ContinueTurnInput {
  access: OrgAccess;
  documentId: string;
  turnId: string;
  approvals: Array<{ callId: string; approved: boolean; arguments?: unknown }>;
  /** The answer to the turn's question, when it paused on `request_input`. */
  input?: string;
}

/**
 * The agent engine: starts turns, continues paused ones, stops running ones. The same code
 * serves interactive chat (HTTP, SSE) and headless runs (jobs); transports only see events.
 */
export class AgentEngine {
  private readonly deps: EngineDeps;
  /** Turns running in this process, so a stop reaches their in-flight LLM call at once. */
  private readonly running: TurnHeartbeat;
  private readonly toolSet: ToolSet;

  constructor(deps: EngineDeps) {
    this.deps = deps;
    this.toolSet = toolSetOf(deps.tools);
    this.running = new TurnHeartbeat(deps.turns, deps.heartbeatMs);
  }

  get tools(): ToolRegistry {
    return this.deps.tools;
  }

  get services(): ToolContext['services'] {
    return this.deps.services;
  }

  async start(input: StartTurnInput, emit: EventSink, signal?: AbortSignal): Promise<TurnResult> {
    const maxSteps = input.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_STEPS_LIMIT) {
      throw invalidInput(`max_steps must be a whole number from 1 to ${MAX_STEPS_LIMIT}.`);
    }
    const unknown = [...(input.autoApprovedTools ?? []), ...(input.declaredWrites ?? []).map((w) => w.tool)].filter(
      (name) => !this.deps.tools.get(name),
    );
    if (unknown.length > 0) throw invalidInput(`The turn names unknown tools: ${unknown.join(', ')}.`);
    if (input.declaredWrites && (input.autoApprove || input.autoApprovedTools?.length)) {
      throw new Error('A run with declared writes makes only those: it cannot also auto-approve.');
    }
    const model = await this.deps.llm.resolve(input.access.orgId, input.model);
    const mentions = await resolveMentions(this.deps.services.db, input.access.orgId, input.mentions ?? []);
    const turn = await this.deps.turns.create({
      orgId: input.access.orgId,
      userId: input.access.userId,
      documentId: input.documentId,
      threadId: input.threadId ?? null,
      messages: input.messages,
      workingState: input.workingState ?? {},
      settings: {
        model,
        maxSteps,
        autoApprove: input.autoApprove ?? false,
        autoApprovedTools: input.autoApprovedTools ?? [],
        ...(input.declaredWrites ? { declaredWrites: input.declaredWrites } : {}),
        mentions,
      },
      progress: { steps: 0, audit: [], text: '', thinking: '', executedRounds: [], usage: { ...NO_TURN_USAGE } },
    });
    if (input.readThread) {
      try {
        const thread = await input.readThread();
        turn.messages = thread.messages;
        turn.workingState = thread.workingState;
        await this.deps.turns.save(turn);
      } catch (error) {
        await this.deps.turns.discard(turn.id);
        throw error;
      }
    }
    await emit({ type: 'turn_started', turn_id: turn.id, thread_id: turn.threadId, model, max_steps: maxSteps });
    return this.withAbort(turn.id, signal, (s) => this.loopFor(input.access, input.documentId).loop({ turn, emit, signal: s }));
  }

  async continue(input: ContinueTurnInput, emit: EventSink, signal?: AbortSignal): Promise<TurnResult> {
    const turn = await this.deps.turns.claimPaused(input.turnId, input.access, input.documentId);
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
    return this.resume(turn, input.access, decisions, emit, signal);
  }

  private async resume(
    turn: Turn,
    access: OrgAccess,
    decisions: Decisions,
    emit: EventSink,
    signal: AbortSignal | undefined,
  ): Promise<TurnResult> {
    await emit({
      type: 'turn_started',
      turn_id: turn.id,
      thread_id: turn.threadId,
      model: turn.settings.model,
      max_steps: turn.settings.maxSteps,
    });
    return this.withAbort(turn.id, signal, (s) =>
      this.loopFor(access, turn.documentId).resume({ turn, emit, signal: s }, decisions),
    );
  }

  sweepExpiredTurns(): Promise<number> {
    return this.deps.turns.sweep();
  }

  /** Ends the running turns whose process died (silent since `silentSince`); see TurnStore.reapOrphans. */
  reapOrphanedTurns(silentSince: Date): Promise<Turn[]> {
    return this.deps.turns.reapOrphans(
      silentSince,
      'The server running this turn stopped before the turn ended. The steps it finished are kept in the thread; send your message again to go on.',
    );
  }

  /** A turn of this user and document (for replaying its frames). */
  turnOf(turnId: string, access: OrgAccess, documentId: string) {
    return this.deps.turns.get(turnId, access, documentId);
  }

  /**
   * Stops a turn: a running one at once when it runs in this process, at its next safe point
   * elsewhere; a paused one now (its pending calls get the "stopped" result, through `emit`).
   * A turn that already ended says how it ended.
   */
  async stop(turnId: string, access: OrgAccess, emit: EventSink): Promise<StopOutcome> {
    const found = await this.deps.turns.requestStop(turnId, access);
    switch (found.status) {
      case 'running':
        this.running.get(turnId)?.abort();
        return { status: 'stopping', detail: `Turn ${turnId} stops at its next safe point; finished steps are kept.` };
      case 'paused': {
        const turn = await this.deps.turns.claimPaused(turnId, access, found.documentId).catch(() => undefined);
        // Continued or expired meanwhile: the stop request stands for a running one.
        if (!turn)
          return { status: 'stopping', detail: `Turn ${turnId} was continued meanwhile; it stops at its next safe point.` };
        await this.resume(turn, access, { approvals: new Map() }, emit, undefined);
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

  private loopFor(access: OrgAccess, documentId: string): ReactLoop {
    return new ReactLoop({
      llm: this.deps.llm,
      tools: this.deps.tools,
      toolSet: this.toolSet,
      turns: this.deps.turns,
      toolContext: { access, documentId, services: this.deps.services },
    });
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
