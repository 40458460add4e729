import { conflict, type Db, invalidInput, newId, notFound, type OrgAccess, tables } from '@docagent/core';
import type { ModelMessage } from 'ai';
import { and, eq, getTableColumns, gt, inArray, isNull, lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { WorkingState } from '../tools/tool.ts';
import type { Subject } from './pack.ts';
import { commitStep, NO_STEP_WRITES, type StepWrites } from './step-commit.ts';
import {
  checkStateVersion,
  type PendingBatch,
  TURN_STATE_VERSION,
  type Turn,
  type TurnProgress,
  type TurnSettings,
} from './turn-state.ts';

const { agentTurns } = tables;

type Row = typeof agentTurns.$inferSelect;

/** A turn that holds its thread: running, or paused for the person. */
const ACTIVE = sql`${agentTurns.status} in ('running', 'paused')`;

/** A turn's stop flag as a scalar subquery, for a statement that reads it along with its own. */
export const stopFlagOf = (turnId: SQLWrapper): SQL<boolean> =>
  sql<boolean>`coalesce((select ${agentTurns.stopRequested} from ${agentTurns} where ${agentTurns.id} = ${turnId}), false)`;

const toTurn = (row: Row): Turn => {
  checkStateVersion(row.id, row.stateVersion);
  return {
    id: row.id,
    orgId: row.orgId,
    userId: row.userId,
    subject: { kind: row.subjectKind, id: row.subjectId },
    threadId: row.threadId,
    status: row.status,
    messages: row.messages as ModelMessage[],
    pending: (row.pending as PendingBatch | null) ?? null,
    workingState: row.workingState as WorkingState,
    settings: row.settings as unknown as TurnSettings,
    progress: row.progress as unknown as TurnProgress,
    expiresAt: row.expiresAt,
  };
};

/**
 * Turn rows: their state, and the messages of a turn that has no thread. A save writes the turn
 * with its step's frames, usage entries and run record (step-commit.ts); the thread's messages
 * are written by the turn journal. The TTL runs from the last save.
 */
export class TurnStore {
  readonly db: Db;
  readonly ttlSeconds: number;
  /** How long a question (request_input) waits for its answer. */
  readonly inputTimeoutSeconds: number;

  constructor(db: Db, ttlSeconds: number, inputTimeoutSeconds = 600) {
    this.db = db;
    this.ttlSeconds = ttlSeconds;
    this.inputTimeoutSeconds = inputTimeoutSeconds;
  }

  private expiry(turn?: Turn): Date {
    const waitsForAnswer = turn?.status === 'paused' && turn.pending?.kind === 'input';
    return new Date(Date.now() + (waitsForAnswer ? this.inputTimeoutSeconds : this.ttlSeconds) * 1000);
  }

  /**
   * Starts a turn. A thread runs one turn at a time (a partial unique index decides, so two
   * requests racing for one thread cannot both win): a second one is refused, naming the first.
   */
  async create(input: Omit<Turn, 'id' | 'status' | 'pending' | 'expiresAt'>, db: Db = this.db): Promise<Turn> {
    const turn: Turn = { ...input, id: newId(), status: 'running', pending: null, expiresAt: this.expiry() };
    if (turn.threadId) {
      // A paused turn nobody continued in time is over; the sweep would remove it anyway.
      await db
        .delete(agentTurns)
        .where(
          and(eq(agentTurns.threadId, turn.threadId), eq(agentTurns.status, 'paused'), lt(agentTurns.expiresAt, new Date())),
        );
    }
    const inserted = await db
      .insert(agentTurns)
      .values({
        id: turn.id,
        orgId: turn.orgId,
        userId: turn.userId,
        subjectKind: turn.subject.kind,
        subjectId: turn.subject.id,
        threadId: turn.threadId,
        // A turn on a thread keeps its messages there.
        messages: (turn.threadId ? [] : turn.messages) as unknown[],
        settings: turn.settings as unknown as Record<string, unknown>,
        status: turn.status,
        stateVersion: TURN_STATE_VERSION,
        workingState: turn.workingState as Record<string, unknown>,
        progress: turn.progress as unknown as Record<string, unknown>,
        expiresAt: turn.expiresAt,
        heartbeatAt: new Date(),
      })
      .onConflictDoNothing({ target: agentTurns.threadId, where: ACTIVE })
      .returning({ id: agentTurns.id });
    if (inserted.length === 0) throw await this.busyThread(turn.threadId as string, db);
    return turn;
  }

  /** Removes a turn that never started (its thread could not be read). */
  async discard(turnId: string, db: Db = this.db): Promise<void> {
    await db.delete(agentTurns).where(eq(agentTurns.id, turnId));
  }

  private async busyThread(threadId: string, db: Db) {
    const [active] = await db
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

  /**
   * Saves the turn's state with what its step wrote: all or nothing. Without writes it still brings
   * the run record's status up to date. Answers the turn's stop flag, so the next step need not
   * read it.
   */
  async save(turn: Turn, db: Db = this.db, writes: StepWrites = NO_STEP_WRITES): Promise<boolean> {
    turn.expiresAt = this.expiry(turn);
    return commitStep(db, turn, writes);
  }

  /** The stored messages of a turn without a thread. */
  async messagesOf(turnId: string): Promise<ModelMessage[]> {
    const [row] = await this.db.select({ messages: agentTurns.messages }).from(agentTurns).where(eq(agentTurns.id, turnId));
    return (row?.messages ?? []) as ModelMessage[];
  }

  /**
   * Takes a paused turn to continue it: only its own user (on its own subject, when one is named),
   * only once, only before it expires. Two requests racing for it: one wins, the other gets 409.
   */
  async claimPaused(turnId: string, access: OrgAccess, subject?: Subject): Promise<Turn> {
    const [row] = await this.db.select().from(agentTurns).where(eq(agentTurns.id, turnId));
    if (!row || row.orgId !== access.orgId) {
      throw invalidInput(`Turn ${turnId.slice(0, 64)} is unknown or has expired; send the message again to start a new turn.`);
    }
    if (row.userId !== access.userId || !isOn(row, subject)) throw notFound(`Turn ${turnId}`);
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

  /** A turn of this user (on this subject, when one is named), whatever its state; any other is "not found". */
  async get(turnId: string, access: OrgAccess, subject?: Subject): Promise<Turn> {
    const [row] = await this.db.select().from(agentTurns).where(eq(agentTurns.id, turnId));
    if (!row || row.orgId !== access.orgId || row.userId !== access.userId || !isOn(row, subject)) {
      throw notFound(`Turn ${turnId}`);
    }
    return toTurn(row);
  }

  /**
   * Asks a turn to stop: the flag that a running one reads at its next safe point, in whichever
   * process runs it. Answers the turn's state as the request found it, with why it failed when it did.
   */
  async requestStop(turnId: string, access: OrgAccess): Promise<{ status: Turn['status']; subject: Subject; error?: string }> {
    const [row] = await this.db
      .update(agentTurns)
      .set({ stopRequested: true })
      // Only its own user's request marks it: anyone else's is "not found" and changes nothing.
      .where(and(eq(agentTurns.id, turnId), eq(agentTurns.orgId, access.orgId), ownedBy(access)))
      .returning({
        userId: agentTurns.userId,
        subjectKind: agentTurns.subjectKind,
        subjectId: agentTurns.subjectId,
        status: agentTurns.status,
        progress: agentTurns.progress,
      });
    if (!row) throw notFound(`Turn ${turnId}`);
    const { error } = row.progress as unknown as TurnProgress;
    return { status: row.status, subject: { kind: row.subjectKind, id: row.subjectId }, ...(error ? { error } : {}) };
  }

  /**
   * Renews the heartbeat of the turns this process runs; answers those still running (a reaped one
   * is not), each with whether a stop was asked for it.
   */
  async beat(turnIds: string[]): Promise<Map<string, { stop: boolean }>> {
    if (turnIds.length === 0) return new Map();
    const rows = await this.db
      .update(agentTurns)
      .set({ heartbeatAt: new Date() })
      .where(and(inArray(agentTurns.id, turnIds), eq(agentTurns.status, 'running')))
      .returning({ id: agentTurns.id, stop: agentTurns.stopRequested });
    return new Map(rows.map((r) => [r.id, { stop: r.stop }]));
  }

  /**
   * Ends the running turns whose process went silent before `silentSince` (it died): failed, with
   * the reason (their thread keeps the steps they finished). Each is ended once, by one reaper.
   */
  async reapOrphans(silentSince: Date, reason: string): Promise<Turn[]> {
    // One statement: a row's lock makes a second reaper's UPDATE see it failed and skip it.
    const rows = await this.db
      .update(agentTurns)
      .set({ status: 'failed', progress: sql`${agentTurns.progress} || ${JSON.stringify({ error: reason })}::jsonb` })
      .where(and(eq(agentTurns.status, 'running'), lt(agentTurns.heartbeatAt, silentSince)))
      .returning();
    return rows.map(toTurn);
  }

  /**
   * Ends the turns whose question went unanswered past its time: finished, no longer pending,
   * kept for the replay window. Each is ended once; answers each with its question.
   */
  async endUnansweredQuestions(now = new Date()): Promise<Array<{ turn: Turn; question: string }>> {
    // One statement: the question is read from the row before it is cleared, and a row's lock
    // makes a second sweeper's UPDATE see it finished and skip it.
    const waiting = this.db
      .select({ id: agentTurns.id, question: sql<string | null>`${agentTurns.pending}->>'question'`.as('question') })
      .from(agentTurns)
      .where(and(eq(agentTurns.status, 'paused'), lt(agentTurns.expiresAt, now), sql`${agentTurns.pending}->>'kind' = 'input'`))
      .as('waiting');
    const rows = await this.db
      .update(agentTurns)
      .set({ status: 'finished', pending: null, expiresAt: this.expiry(), updatedAt: now })
      .from(waiting)
      .where(and(eq(agentTurns.id, waiting.id), eq(agentTurns.status, 'paused'), lt(agentTurns.expiresAt, now)))
      .returning({ ...getTableColumns(agentTurns), question: waiting.question });
    return rows.map(({ question, ...row }) => ({ turn: toTurn(row), question: question ?? '' }));
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

const ownedBy = (access: OrgAccess) =>
  access.userId === null ? isNull(agentTurns.userId) : eq(agentTurns.userId, access.userId);

const isOn = (row: Row, subject: Subject | undefined) =>
  !subject || (row.subjectKind === subject.kind && row.subjectId === subject.id);
