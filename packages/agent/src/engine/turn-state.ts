import { conflict } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { WorkingState } from '../tools/tool.ts';
import type { DeclaredWrite } from './decision.ts';
import type { CallDecision, ToolCallInfo, TurnResult, TurnUsage } from './events.ts';
import type { Subject } from './pack.ts';

/**
 * The shape of a stored turn's `pending`, `working_state`, `settings` and `progress`. A stored turn
 * is read back only by code that knows its version (migrations bring older ones up to it).
 */
export const TURN_STATE_VERSION = 2;

export function checkStateVersion(turnId: string, version: number): void {
  if (version !== TURN_STATE_VERSION) {
    throw conflict(
      `Turn ${turnId} was stored by another version of docagent (state version ${version}, this one reads ${TURN_STATE_VERSION}); send the message again to start a new turn.`,
    );
  }
}

/** A step's tool calls waiting for the person: approvals, or the answer to a question. */
export type PendingBatch =
  | { kind: 'approval'; roundIndex: number; calls: ToolCallInfo[] }
  | { kind: 'input'; roundIndex: number; calls: ToolCallInfo[]; callId: string; question: string };

export interface TurnSettings {
  model: string;
  maxSteps: number;
  /** The loop strategy: react or roa. */
  strategy: string;
  autoApprove: boolean;
  autoApprovedTools: string[];
  /** A headless run's only allowed writes (see decision.ts); absent for a person's turn. */
  declaredWrites?: DeclaredWrite[];
  /** Writes are refused until the person approves the turn's plan (its answer), in a next turn. */
  planMode?: boolean;
  /** The resolved @mentions of the person's message, for every step's system message. */
  mentions: string;
}

/** One tool call as the audit keeps it. */
export interface AuditedCall {
  round_index: number;
  call_id: string;
  name: string;
  arguments: unknown;
  /** not_needed: read-only; policy: allowed ahead; user: approved by the person; rejected; denied; stopped. */
  approval: 'not_needed' | 'policy' | 'user' | 'rejected' | 'denied' | 'stopped';
  decision: CallDecision;
  /** Why it was decided so (a denial says what the run may do instead). */
  reason: string;
  /** The permission rule that decided it, when one did. */
  rule_id?: string;
  approved_by: string | null;
  success: boolean;
  output?: unknown;
  error?: string;
  started_at: string;
  duration_ms: number;
}

export interface TurnProgress {
  /** Steps finished (react: LLM steps; roa: reason–act–observe iterations). */
  steps: number;
  text: string;
  thinking: string;
  executedRounds: Array<{ round_index: number; tool_calls: ToolCallInfo[] }>;
  usage: TurnUsage;
  /** Where a strategy with phases is within its step (roa: reason, act, observe). */
  phase?: string;
  /** What a strategy carries from one phase or step to the next (roa: the plan, the last observation). */
  strategyState?: Record<string, unknown>;
  /** Why a failed turn failed, for whoever asks about it later (stop, the run record). */
  error?: string;
}

export interface Turn {
  id: string;
  orgId: string;
  userId: string | null;
  subject: Subject;
  threadId: string | null;
  status: 'running' | 'paused' | 'finished' | 'stopped' | 'failed';
  /** The whole conversation, in memory; the thread (or, without one, the turn row) stores it. */
  messages: ModelMessage[];
  pending: PendingBatch | null;
  workingState: WorkingState;
  settings: TurnSettings;
  progress: TurnProgress;
  expiresAt: Date;
}

/** What of a turn's messages is stored: `stored` messages, of which the first `valid` are unchanged. */
export interface StoredMessages {
  stored: number;
  valid: number;
}

export const NO_TURN_USAGE: TurnUsage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: 0,
});

/** A turn's response body (DocRouter's non-stream shape, plus ours). */
export function resultOf(turn: Turn): TurnResult {
  const base: TurnResult = {
    text: turn.progress.text,
    thinking: turn.progress.thinking,
    working_state: turn.workingState,
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
