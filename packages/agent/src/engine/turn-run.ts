import {
  addUsage,
  type LlmCallContext,
  type LlmCallOutcome,
  type OrgAccess,
  type TokenUsage,
  tokenUsage,
  type UsageEntry,
} from '@docagent/core';
import type { ModelMessage, ToolSet } from 'ai';
import type { ToolContext, ToolRegistry, ToolServices } from '../tools/tool.ts';
import { buildSystemMessage } from './context.ts';
import type { AgentEvent, EventSink, StepFrames, TurnOutput, TurnResult, TurnUsage } from './events.ts';
import type { LlmGateway } from './llm-gateway.ts';
import type { Pack } from './pack.ts';
import { SectionCache } from './section-cache.ts';
import type { TurnJournal } from './turn-journal.ts';
import { type AuditedCall, resultOf, type StoredMessages, type Turn } from './turn-state.ts';
import type { TurnStore } from './turn-store.ts';

/** What every strategy and the shared parts of the loop work with: the engine's, with the run's model layer. */
export interface LoopParts {
  llm: LlmGateway;
  services: ToolServices;
  turns: TurnStore;
  journal: TurnJournal;
}

/** One run of a turn (from its start or a continuation to its next pause or end), in memory. */
export class TurnRun {
  readonly parts: LoopParts;
  readonly turn: Turn;
  readonly access: OrgAccess;
  readonly emit: EventSink;
  /** Where the frames that close a step are written with it, when the turn's frames are kept. */
  private readonly frames: StepFrames | undefined;
  readonly signal: AbortSignal;
  readonly tools: ToolRegistry;
  /** The tools as the model sees them. */
  readonly toolSet: ToolSet;
  readonly packs: Pack[];
  private readonly sections: SectionCache;
  /** How much of `turn.messages` is stored. */
  readonly stored: StoredMessages;
  /** Calls audited since the last commit. */
  private audit: AuditedCall[] = [];
  /** The ledger entries of the turn's own model calls since the last commit, written by it. */
  private usage: UsageEntry[] = [];
  /** The stop flag as the last statement that read it found it (a commit, a batch's rules), until a stop check uses it. */
  private knownStop: boolean | undefined;
  private readonly admitted: (() => void) | undefined;

  constructor(init: {
    parts: LoopParts;
    turn: Turn;
    access: OrgAccess;
    output: TurnOutput;
    llm: LlmGateway;
    signal: AbortSignal;
    tools: ToolRegistry;
    toolSet: ToolSet;
    packs: Pack[];
    stored: StoredMessages;
    /** The stop flag when the caller knows it, so that the first stop check need not read it. */
    stop?: boolean;
    /** Gives up the place of a turn that is starting (TurnAdmission); a continuation has none. */
    admitted?: () => void;
  }) {
    // The run's own model layer: the organization's model choices are read once (LlmGateway.forRun).
    this.parts = { ...init.parts, llm: init.llm };
    this.turn = init.turn;
    this.access = init.access;
    this.emit = init.output.emit;
    this.frames = init.output.frames;
    this.signal = init.signal;
    this.tools = init.tools;
    this.toolSet = init.toolSet;
    this.packs = init.packs;
    this.sections = new SectionCache(init.packs);
    this.stored = init.stored;
    this.knownStop = init.stop;
    this.admitted = init.admitted;
  }

  /**
   * One model call of the turn through the model layer (limit, ledger), counted in the turn's
   * usage. From the first, the turn no longer counts as starting (TurnAdmission).
   */
  async callModel<T>(operation: string, call: (context: LlmCallContext) => Promise<LlmCallOutcome<T>>): Promise<T> {
    this.admitted?.();
    const { turn } = this;
    let usage: LlmCallOutcome<T>['usage'];
    const { value, costUsd } = await this.parts.llm.call(
      { orgId: turn.orgId, model: turn.settings.model, operation, subject: turn.subject, ledger: this.keepUsage },
      async (context) => {
        const outcome = await call(context);
        usage = outcome.usage;
        return outcome;
      },
    );
    this.addUsage(tokenUsage(usage), costUsd);
    return value;
  }

  /**
   * A stop asked here or in another process (through the database). Right after a commit, or
   * after a batch's rules were read, the flag that statement read back answers, so neither a
   * step nor the first call of a batch reads it again.
   */
  async stopWanted(): Promise<boolean> {
    if (this.signal.aborted) return true;
    const known = this.knownStop;
    this.knownStop = undefined;
    return known ?? (await this.parts.turns.stopRequested(this.turn.id));
  }

  /** The stop flag as a read just now found it: the next stop check takes it instead of reading it again. */
  stopRead(flag: boolean): void {
    this.knownStop = flag;
  }

  toolContext(): ToolContext {
    return {
      access: this.access,
      subject: this.turn.subject,
      services: this.parts.services,
      workingState: this.turn.workingState,
      userMessage: lastUserText(this.turn.messages),
      modelId: this.turn.settings.model,
      llm: this.parts.llm,
      abortSignal: this.signal,
      addUsage: (usage, costUsd) => this.addUsage(usage, costUsd),
    };
  }

  systemMessage(): Promise<string> {
    const { turn } = this;
    return buildSystemMessage({
      services: this.parts.services,
      access: this.access,
      subject: turn.subject,
      packs: this.sections.packs,
      modelId: turn.settings.model,
      workingState: turn.workingState,
      mentions: turn.settings.mentions,
      planMode: turn.settings.planMode === true,
    });
  }

  audited(call: AuditedCall): void {
    this.audit.push(call);
    const ran = call.decision === 'allowed' || call.decision === 'approved';
    if (ran && this.tools.get(call.name)?.access === 'read_write') this.sections.changed();
  }

  /** Where the turn's own model calls leave their usage entries: the next commit writes them. */
  readonly keepUsage = (entry: UsageEntry): void => {
    this.usage.push(entry);
  };

  /**
   * Writes the turn's state and what it did since the last commit (see TurnJournal.commit) with
   * `closing`, the frames that end the step, pause or end the turn: when the turn's frames are
   * kept, by the same write, and sent only once it is done (after `committed` ran). A failed turn
   * (`failed`) writes its state alone, so that a broken frame log cannot keep it from being saved
   * as failed; its error frame follows.
   */
  async commit(closing: AgentEvent[] = [], options: { failed?: boolean; committed?: () => void } = {}): Promise<void> {
    const calls = this.audit;
    this.audit = [];
    const { frames } = this;
    const staged =
      frames && !options.failed
        ? await frames.stage(closing)
        : {
            write: undefined,
            deliver: async () => {
              for (const event of closing) await this.emit(event);
            },
          };
    // Kept until written: a commit that fails leaves them to the failed turn's own commit.
    const usage = this.usage;
    this.knownStop = await this.parts.journal.commit(this.turn, this.stored, calls, {
      withMessages: !options.failed,
      frames: staged.write,
      usage,
    });
    this.usage = this.usage.slice(usage.length);
    options.committed?.();
    await staged.deliver();
  }

  /** Counts a model call (the turn's own or a tool's) in the turn's usage. */
  addUsage(usage: TokenUsage, costUsd: number | null): void {
    this.turn.progress.usage = addTurnUsage(this.turn.progress.usage, usage, costUsd);
  }

  /** The response body (DocRouter's non-stream shape, plus ours). */
  result(): TurnResult {
    return resultOf(this.turn);
  }
}

/** The text of the person's latest message, if there is one. */
function lastUserText(messages: ModelMessage[]): string | undefined {
  const message = messages.findLast((m) => m.role === 'user');
  if (!message) return undefined;
  if (typeof message.content === 'string') return message.content;
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return text === '' ? undefined : text;
}

export function addTurnUsage(total: TurnUsage, step: TokenUsage, costUsd: number | null): TurnUsage {
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
