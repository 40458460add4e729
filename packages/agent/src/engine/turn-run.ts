import { addUsage, type OrgAccess, type TokenUsage, tokenUsage } from '@docagent/core';
import type { LanguageModelUsage, ModelMessage, ToolSet } from 'ai';
import type { ToolContext, ToolRegistry, ToolServices } from '../tools/tool.ts';
import { buildSystemMessage } from './context.ts';
import type { EventSink, TurnResult, TurnUsage } from './events.ts';
import type { LlmGateway } from './llm-gateway.ts';
import type { Pack } from './pack.ts';
import type { TurnJournal } from './turn-journal.ts';
import { type AuditedCall, resultOf, type StoredMessages, type Turn } from './turn-state.ts';
import type { TurnStore } from './turn-store.ts';

/** What every strategy and the shared parts of the loop work with; one per engine. */
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
  readonly signal: AbortSignal;
  readonly tools: ToolRegistry;
  /** The tools as the model sees them. */
  readonly toolSet: ToolSet;
  readonly packs: Pack[];
  /** How much of `turn.messages` is stored. */
  readonly stored: StoredMessages;
  /** Calls audited since the last commit. */
  private audit: AuditedCall[] = [];

  constructor(init: {
    parts: LoopParts;
    turn: Turn;
    access: OrgAccess;
    emit: EventSink;
    signal: AbortSignal;
    tools: ToolRegistry;
    toolSet: ToolSet;
    packs: Pack[];
    stored: StoredMessages;
  }) {
    this.parts = init.parts;
    this.turn = init.turn;
    this.access = init.access;
    this.emit = init.emit;
    this.signal = init.signal;
    this.tools = init.tools;
    this.toolSet = init.toolSet;
    this.packs = init.packs;
    this.stored = init.stored;
  }

  /** A stop asked here or in another process (through the database). */
  async stopWanted(): Promise<boolean> {
    return this.signal.aborted || (await this.parts.turns.stopRequested(this.turn.id));
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
      packs: this.packs,
      modelId: turn.settings.model,
      workingState: turn.workingState,
      mentions: turn.settings.mentions,
      planMode: turn.settings.planMode === true,
    });
  }

  audited(call: AuditedCall): void {
    this.audit.push(call);
  }

  /** Writes the turn's state and what it did since the last commit (see TurnJournal.commit). */
  async commit(withMessages = true): Promise<void> {
    const calls = this.audit;
    this.audit = [];
    await this.parts.journal.commit(this.turn, this.stored, calls, withMessages);
  }

  /** Counts a model call (the turn's own or a tool's) in the turn's usage. */
  addUsage(usage: TokenUsage, costUsd: number | null): void {
    this.turn.progress.usage = addTurnUsage(this.turn.progress.usage, usage, costUsd);
  }

  addModelUsage(usage: LanguageModelUsage | undefined, costUsd: number | null): void {
    this.addUsage(tokenUsage(usage), costUsd);
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
