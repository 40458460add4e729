import { conflict, type Db, invalidInput, newId, notFound, type OrgAccess, tables } from '@docagent/core';
import type { ModelMessage } from 'ai';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { WorkingState } from '../tools/tool.ts';
import type { ToolCallInfo, TurnUsage } from './events.ts';

const { agentTurns, agentRunRecords, agentThreads } = tables;

/** A step's tool calls waiting for the person: approvals, or the answer to a question. */
export type PendingBatch =
  | { kind: 'approval'; roundIndex: number; calls: ToolCallInfo[] }
  | { kind: 'input'; roundIndex: number; calls: ToolCallInfo[]; callId: string; question: string };

export interface TurnSettings {
  model: string;
  maxSteps: number;
  autoApprove: boolean;
  autoApprovedTools: string[];
  /** The resolved @mentions of the person's message, for every step's system message. */
  mentions: string;
}

/** One tool call as the audit keeps it. */
export interface AuditedCall {
  round_index: number;
  call_id: string;
  name: string;
  arguments: unknown;
  /** not_needed: read-only; policy: auto-approved; user: approved by the person; rejected; stopped. */
  approval: 'not_needed' | 'policy' | 'user' | 'rejected' | 'stopped';
  approved_by: string | null;
  success: boolean;
  output?: unknown;
  error?: string;
  started_at: string;
  duration_ms: number;
}

export interface TurnProgress {
  steps: number;
  audit: AuditedCall[];
  text: string;
  thinking: string;
  executedRounds: Array<{ round_index: number; tool_calls: ToolCallInfo[] }>;
  usage: TurnUsage;
}

export interface Turn {
  id: string;
  orgId: string;
  userId: string | null;
  documentId: string;
  threadId: string | null;
  status: 'running' | 'paused' | 'finished' | 'stopped' | 'failed';
  messages: ModelMessage[];
  pending: PendingBatch | null;
  workingState: WorkingState;
  settings: TurnSettings;
  progress: TurnProgress;
  expiresAt: Date;
}

export const NO_TURN_USAGE: TurnUsage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cached_tokens: 0,
  reasoning_tokens: 0,
  cost_usd: 0,
});

type Row = typeof agentTurns.$inferSelect;

const toTurn = (row: Row): Turn => ({
  id: row.id,
  orgId: row.orgId,
  userId: row.userId,
  documentId: row.documentId,
  threadId: row.threadId,
  status: row.status,
  messages: row.messages as ModelMessage[],
  pending: (row.pending as PendingBatch | null) ?? null,
  workingState: row.workingState as WorkingState,
  settings: row.settings as unknown as TurnSettings,
  progress: row.progress as unknown as TurnProgress,
  expiresAt: row.expiresAt,
});

const columnsOf = (turn: Turn) => ({
  status: turn.status,
  messages: turn.messages as unknown[],
  pending: turn.pending,
  workingState: turn.workingState as Record<string, unknown>,
  settings: turn.settings as unknown as Record<string, unknown>,
  progress: turn.progress as unknown as Record<string, unknown>,
  expiresAt: turn.expiresAt,
  updatedAt: new Date(),
});

/** Turns are kept in the database from their first step; the TTL runs from the last save. */
export class TurnStore {
  readonly db: Db;
  readonly ttlSeconds: number;

  constructor(db: Db, ttlSeconds: number) {
    this.db = db;
    this.ttlSeconds = ttlSeconds;
  }

  private expiry(): Date {
    return new Date(Date.now() + this.ttlSeconds * 1000);
  }

  async create(input: Omit<Turn, 'id' | 'status' | 'pending' | 'expiresAt'>): Promise<Turn> {
    const turn: Turn = { ...input, id: newId(), status: 'running', pending: null, expiresAt: this.expiry() };
    await this.db.insert(agentTurns).values({
      id: turn.id,
      orgId: turn.orgId,
      userId: turn.userId,
      documentId: turn.documentId,
      threadId: turn.threadId,
      ...columnsOf(turn),
    });
    await this.record(turn);
    return turn;
  }

  async save(turn: Turn): Promise<void> {
    turn.expiresAt = this.expiry();
    await this.db.update(agentTurns).set(columnsOf(turn)).where(eq(agentTurns.id, turn.id));
    await this.record(turn);
    // A paused, finished or stopped turn leaves its messages and working state on its thread.
    if (turn.threadId && turn.status !== 'running' && turn.status !== 'failed') {
      await this.db
        .update(agentThreads)
        .set({
          messages: turn.messages as unknown[],
          workingState: turn.workingState as Record<string, unknown>,
          model: turn.settings.model,
          updatedAt: new Date(),
        })
        .where(eq(agentThreads.id, turn.threadId));
    }
  }

  /** The run record (audit) follows the turn at every save; it outlives the turn row. */
  private async record(turn: Turn): Promise<void> {
    const values = {
      status: turn.status,
      model: turn.settings.model,
      toolCalls: turn.progress.audit as unknown[],
      usage: turn.progress.usage as unknown as Record<string, unknown>,
      updatedAt: new Date(),
    };
    await this.db
      .insert(agentRunRecords)
      .values({ id: turn.id, turnId: turn.id, orgId: turn.orgId, userId: turn.userId, documentId: turn.documentId, ...values })
      .onConflictDoUpdate({ target: agentRunRecords.id, set: values });
  }

  /**
   * Takes a paused turn to continue it: only its own user on its own document, only once, only
   * before it expires. Two requests racing for it: one wins, the other gets 409.
   */
  async claimPaused(turnId: string, access: OrgAccess, documentId: string): Promise<Turn> {
    const [row] = await this.db.select().from(agentTurns).where(eq(agentTurns.id, turnId));
    if (!row || row.orgId !== access.orgId) {
      throw invalidInput(`Turn ${turnId.slice(0, 64)} is unknown or has expired; send the message again to start a new turn.`);
    }
    if (row.userId !== access.userId || row.documentId !== documentId) throw notFound(`Turn ${turnId}`);
    if (row.status !== 'paused') throw conflict(`Turn ${turnId} was already continued (it is ${row.status}).`);
    const [claimed] = await this.db
      .update(agentTurns)
      .set({ status: 'running', updatedAt: new Date() })
      .where(and(eq(agentTurns.id, turnId), eq(agentTurns.status, 'paused'), gt(agentTurns.expiresAt, new Date())))
      .returning();
    if (!claimed) {
      const [again] = await this.db.select({ status: agentTurns.status }).from(agentTurns).where(eq(agentTurns.id, turnId));
      if (again?.status === 'paused') {
        throw invalidInput(`Turn ${turnId} has expired; send the message again to start a new turn.`);
      }
      throw conflict(`Turn ${turnId} was already continued.`);
    }
    return toTurn(claimed);
  }

  /** A turn of this user on this document, whatever its state; any other is "not found". */
  async get(turnId: string, access: OrgAccess, documentId: string): Promise<Turn> {
    const [row] = await this.db.select().from(agentTurns).where(eq(agentTurns.id, turnId));
    if (!row || row.orgId !== access.orgId || row.userId !== access.userId || row.documentId !== documentId) {
      throw notFound(`Turn ${turnId}`);
    }
    return toTurn(row);
  }

  /** Asks a running turn to stop; the engine looks at the next safe point (any process). */
  async requestStop(turnId: string, access: OrgAccess): Promise<void> {
    const [row] = await this.db
      .select({ orgId: agentTurns.orgId, userId: agentTurns.userId })
      .from(agentTurns)
      .where(eq(agentTurns.id, turnId));
    if (!row || row.orgId !== access.orgId || row.userId !== access.userId) throw notFound(`Turn ${turnId}`);
    await this.db.update(agentTurns).set({ stopRequested: true }).where(eq(agentTurns.id, turnId));
  }

  async stopRequested(turnId: string): Promise<boolean> {
    const [row] = await this.db.select({ stop: agentTurns.stopRequested }).from(agentTurns).where(eq(agentTurns.id, turnId));
    return row?.stop ?? false;
  }

  /** Removes turns past their expiry; finished ones are of no further use either. */
  async sweep(now = new Date()): Promise<number> {
    const removed = await this.db.delete(agentTurns).where(lt(agentTurns.expiresAt, now)).returning({ id: agentTurns.id });
    return removed.length;
  }
}
