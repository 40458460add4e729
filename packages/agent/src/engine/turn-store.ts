import { conflict, type Db, invalidInput, newId, notFound, type OrgAccess, tables } from '@docagent/core';
import type { ModelMessage } from 'ai';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { WorkingState } from '../tools/tool.ts';
import type { DeclaredWrite } from './decision.ts';
import type { CallDecision, ToolCallInfo, TurnUsage } from './events.ts';

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
  /** A headless run's only allowed writes (see decision.ts); absent for a person's turn. */
  declaredWrites?: DeclaredWrite[];
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
  /** Why a failed turn failed, for whoever asks about it later (stop, the run record). */
  error?: string;
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

/** A turn that holds its thread: running, or paused for the person. */
const ACTIVE = sql`${agentTurns.status} in ('running', 'paused')`;

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

  /**
   * Starts a turn. A thread runs one turn at a time (a partial unique index decides, so two
   * requests racing for one thread cannot both win): a second one is refused, naming the first.
   */
  async create(input: Omit<Turn, 'id' | 'status' | 'pending' | 'expiresAt'>): Promise<Turn> {
    const turn: Turn = { ...input, id: newId(), status: 'running', pending: null, expiresAt: this.expiry() };
    if (turn.threadId) {
      // A paused turn nobody continued in time is over; the sweep would remove it anyway.
      await this.db
        .delete(agentTurns)
        .where(
          and(eq(agentTurns.threadId, turn.threadId), eq(agentTurns.status, 'paused'), lt(agentTurns.expiresAt, new Date())),
        );
    }
    const inserted = await this.db
      .insert(agentTurns)
      .values({
        id: turn.id,
        orgId: turn.orgId,
        userId: turn.userId,
        documentId: turn.documentId,
        threadId: turn.threadId,
        ...columnsOf(turn),
        heartbeatAt: new Date(),
      })
      .onConflictDoNothing({ target: agentTurns.threadId, where: ACTIVE })
      .returning({ id: agentTurns.id });
    if (inserted.length === 0) throw await this.busyThread(turn.threadId as string);
    await this.record(turn);
    return turn;
  }

  /** Removes a turn that never started (its thread could not be read), with its record. */
  async discard(turnId: string): Promise<void> {
    await this.db.delete(agentTurns).where(eq(agentTurns.id, turnId));
    await this.db.delete(agentRunRecords).where(eq(agentRunRecords.id, turnId));
  }

  private async busyThread(threadId: string) {
    const [active] = await this.db
      .select({ id: agentTurns.id, status: agentTurns.status })
      .from(agentTurns)
      .where(and(eq(agentTurns.threadId, threadId), ACTIVE));
    if (!active) return conflict(`Thread ${threadId} was busy with another turn; send the message again.`);
    const what =
      active.status === 'paused'
        ? 'waits for a decision: approve or reject its calls (or answer its question) with POST .../chat/approve, or stop it with POST .../chat/stop'
        : 'is still running: wait for it to end (GET .../chat/turns/{turn_id}/stream follows it), or stop it with POST .../chat/stop';
    return conflict(`Thread ${threadId} has turn ${active.id}, which ${what}; then send the message again.`);
  }

  async save(turn: Turn): Promise<void> {
    turn.expiresAt = this.expiry();
    await this.db.update(agentTurns).set(columnsOf(turn)).where(eq(agentTurns.id, turn.id));
    await this.record(turn);
    // A turn that paused or ended leaves its messages and working state on its thread; one that
    // failed does so only when it finished a step (what ran is kept), so that sending the failed
    // message again does not store it twice.
    const leavesThread = turn.status !== 'running' && (turn.status !== 'failed' || turn.progress.steps > 0);
    if (turn.threadId && leavesThread) {
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
      .set({ status: 'running', heartbeatAt: new Date(), updatedAt: new Date() })
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

  /**
   * Asks a turn to stop; a running one stops at its next safe point (in any process). Answers the
   * turn's state as the request found it, with why it failed when it did.
   */
  async requestStop(turnId: string, access: OrgAccess): Promise<{ status: Turn['status']; documentId: string; error?: string }> {
    const [row] = await this.db
      .update(agentTurns)
      .set({ stopRequested: true })
      .where(and(eq(agentTurns.id, turnId), eq(agentTurns.orgId, access.orgId)))
      .returning({
        userId: agentTurns.userId,
        documentId: agentTurns.documentId,
        status: agentTurns.status,
        progress: agentTurns.progress,
      });
    if (!row || row.userId !== access.userId) throw notFound(`Turn ${turnId}`);
    const { error } = row.progress as unknown as TurnProgress;
    return { status: row.status, documentId: row.documentId, ...(error ? { error } : {}) };
  }

  /** Renews the heartbeat of the turns this process runs; answers those still running (a reaped one is not). */
  async beat(turnIds: string[]): Promise<Set<string>> {
    if (turnIds.length === 0) return new Set();
    const rows = await this.db
      .update(agentTurns)
      .set({ heartbeatAt: new Date() })
      .where(and(inArray(agentTurns.id, turnIds), eq(agentTurns.status, 'running')))
      .returning({ id: agentTurns.id });
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Ends the running turns whose process went silent before `silentSince` (it died): failed, with
   * the reason, their thread keeping the steps they finished. Each is ended once, by one reaper.
   */
  async reapOrphans(silentSince: Date, reason: string): Promise<Turn[]> {
    const reaped: Turn[] = [];
    const rows = await this.db
      .select({ id: agentTurns.id })
      .from(agentTurns)
      .where(and(eq(agentTurns.status, 'running'), lt(agentTurns.heartbeatAt, silentSince)));
    for (const { id } of rows) {
      const [row] = await this.db
        .update(agentTurns)
        .set({ status: 'failed', progress: sql`${agentTurns.progress} || ${JSON.stringify({ error: reason })}::jsonb` })
        .where(and(eq(agentTurns.id, id), eq(agentTurns.status, 'running'), lt(agentTurns.heartbeatAt, silentSince)))
        .returning();
      if (!row) continue;
      const turn = toTurn(row);
      await this.save(turn);
      reaped.push(turn);
    }
    return reaped;
  }

  async stopRequested(turnId: string): Promise<boolean> {
    const [row] = await this.db.select({ stop: agentTurns.stopRequested }).from(agentTurns).where(eq(agentTurns.id, turnId));
    return row?.stop ?? false;
  }

  /**
   * Removes turns past their expiry: paused ones nobody continued, ended ones past their replay
   * window. A running turn stays however long its step takes; its heartbeat tells when it died.
   */
  async sweep(now = new Date()): Promise<number> {
    const removed = await this.db
      .delete(agentTurns)
      .where(and(lt(agentTurns.expiresAt, now), sql`${agentTurns.status} <> 'running'`))
      .returning({ id: agentTurns.id });
    return removed.length;
  }
}
