import { invalidInput, type OrgAccess } from '@docagent/core';
import type { ModelMessage, ToolSet } from 'ai';
import type { ToolContext, ToolRegistry, WorkingState } from '../tools/tool.ts';
import type { EventSink, TurnResult } from './events.ts';
import type { LlmGateway } from './llm-gateway.ts';
import { type Mention, resolveMentions } from './mentions.ts';
import { type Decisions, ReactLoop } from './react-loop.ts';
import { toolSetOf } from './step.ts';
import { NO_TURN_USAGE, type TurnStore } from './turn-store.ts';

export const DEFAULT_MAX_STEPS = 10;
export const MAX_STEPS_LIMIT = 50;

export interface EngineDeps {
  llm: LlmGateway;
  tools: ToolRegistry;
  turns: TurnStore;
  services: ToolContext['services'];
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
  workingState?: WorkingState;
  mentions?: Mention[];
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
  private readonly running = new Map<string, AbortController>();
  private readonly toolSet: ToolSet;

  constructor(deps: EngineDeps) {
    this.deps = deps;
    this.toolSet = toolSetOf(deps.tools);
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
    const unknown = (input.autoApprovedTools ?? []).filter((name) => !this.deps.tools.get(name));
    if (unknown.length > 0) throw invalidInput(`auto_approved_tools names unknown tools: ${unknown.join(', ')}.`);
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
        mentions,
      },
      progress: { steps: 0, audit: [], text: '', thinking: '', executedRounds: [], usage: { ...NO_TURN_USAGE } },
    });
    await emit({ type: 'turn_started', turn_id: turn.id, thread_id: turn.threadId, model, max_steps: maxSteps });
    return this.withAbort(turn.id, signal, (s) => this.loopFor(input.access, input.documentId).loop({ turn, emit, signal: s }));
  }

  async continue(input: ContinueTurnInput, emit: EventSink, signal?: AbortSignal): Promise<TurnResult> {
    const turn = await this.deps.turns.claimPaused(input.turnId, input.access, input.documentId);
    const pending = turn.pending;
    const known = new Set(pending?.calls.map((c) => c.id));
    const strangers = input.approvals.filter((a) => !known.has(a.callId)).map((a) => a.callId);
    if (strangers.length > 0 || !pending) {
      // Give the turn back untouched: a typo in a call id must not cost the person the turn.
      turn.status = 'paused';
      await this.deps.turns.save(turn);
      throw invalidInput(`approvals name call ids that are not pending in this turn: ${strangers.join(', ')}.`);
    }
    const decisions: Decisions = {
      approvals: new Map(input.approvals.map((a) => [a.callId, { approved: a.approved, arguments: a.arguments }])),
      answer: input.input,
    };
    await emit({
      type: 'turn_started',
      turn_id: turn.id,
      thread_id: turn.threadId,
      model: turn.settings.model,
      max_steps: turn.settings.maxSteps,
    });
    return this.withAbort(turn.id, signal, (s) =>
      this.loopFor(input.access, input.documentId).resume({ turn, emit, signal: s }, decisions),
    );
  }

  sweepExpiredTurns(): Promise<number> {
    return this.deps.turns.sweep();
  }

  /** A turn of this user and document (for replaying its frames). */
  turnOf(turnId: string, access: OrgAccess, documentId: string) {
    return this.deps.turns.get(turnId, access, documentId);
  }

  /** Stops a turn: at once when it runs in this process, at its next safe point elsewhere. */
  async stop(turnId: string, access: OrgAccess): Promise<void> {
    await this.deps.turns.requestStop(turnId, access);
    this.running.get(turnId)?.abort();
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
    this.running.set(turnId, controller);
    try {
      return await run(controller.signal);
    } finally {
      this.running.delete(turnId);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }
}
