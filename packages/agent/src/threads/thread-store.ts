import { conflict, type Db, invalidInput, newId, notFound, type OrgAccess, tables } from '@docagent/core';
import type { ModelMessage } from 'ai';
import { and, desc, eq, inArray, isNull, notExists } from 'drizzle-orm';
import { appendedMessages } from '../engine/appended-messages.ts';
import type { Subject } from '../engine/pack.ts';
import type { StoredMessages } from '../engine/turn-state.ts';
import type { WorkingState } from '../tools/tool.ts';

const { agentThreads, agentTurns } = tables;

export interface ThreadSummary {
  id: string;
  title: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface Thread extends ThreadSummary {
  messages: ModelMessage[];
  workingState: WorkingState;
  model: string | null;
  /** The loop strategy its turns use unless a request says otherwise. */
  strategy: string;
}

const MAX_TITLE = 200;

/**
 * A user's conversations about one subject. Every message is kept; windowing happens when
 * sending. Whether the subject exists is checked before (by its pack), not here.
 */
export class ThreadStore {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** This user's threads (on `subject`, when named). */
  private ofUser(access: OrgAccess, subject: Subject | undefined) {
    return and(
      eq(agentThreads.orgId, access.orgId),
      subject ? eq(agentThreads.subjectKind, subject.kind) : undefined,
      subject ? eq(agentThreads.subjectId, subject.id) : undefined,
      access.userId === null ? isNull(agentThreads.userId) : eq(agentThreads.userId, access.userId),
    );
  }

  /**
   * A new thread on a subject, empty or continuing from `start` (e.g. an auto-create proposal to
   * refine).
   */
  async createFor(
    access: OrgAccess,
    subject: Subject,
    options: { title?: string; strategy?: string; start?: { messages: ModelMessage[]; workingState: WorkingState } } = {},
  ): Promise<Thread> {
    const { title, start } = options;
    const now = new Date();
    const thread: Thread = {
      id: newId(),
      title: (title?.trim() || 'New conversation').slice(0, MAX_TITLE),
      messages: start?.messages ?? [],
      workingState: start?.workingState ?? {},
      model: null,
      strategy: options.strategy ?? 'react',
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(agentThreads).values({
      id: thread.id,
      orgId: access.orgId,
      userId: access.userId,
      subjectKind: subject.kind,
      subjectId: subject.id,
      strategy: thread.strategy,
      title: thread.title,
      messages: thread.messages as unknown[],
      workingState: thread.workingState as Record<string, unknown>,
      createdAt: now,
      updatedAt: now,
    });
    return thread;
  }

  /** This user's threads on a subject, latest first. */
  async list(access: OrgAccess, subject: Subject): Promise<ThreadSummary[]> {
    return this.db
      .select({
        id: agentThreads.id,
        title: agentThreads.title,
        createdAt: agentThreads.createdAt,
        updatedAt: agentThreads.updatedAt,
      })
      .from(agentThreads)
      .where(this.ofUser(access, subject))
      .orderBy(desc(agentThreads.updatedAt))
      .limit(200);
  }

  /** A thread of this user on this subject; any other is "not found". */
  async get(access: OrgAccess, subject: Subject | undefined, threadId: string): Promise<Thread> {
    const [row] = await this.db
      .select()
      .from(agentThreads)
      .where(and(this.ofUser(access, subject), eq(agentThreads.id, threadId)));
    if (!row) throw notFound(`Thread ${threadId}`);
    return {
      id: row.id,
      title: row.title,
      messages: row.messages as ModelMessage[],
      workingState: row.workingState as WorkingState,
      model: row.model,
      strategy: row.strategy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /** The strategy of a thread of this user on this subject (its messages stay unread); any other is "not found". */
  async strategyOf(access: OrgAccess, subject: Subject, threadId: string): Promise<string> {
    const [row] = await this.db
      .select({ strategy: agentThreads.strategy })
      .from(agentThreads)
      .where(and(this.ofUser(access, subject), eq(agentThreads.id, threadId)));
    if (!row) throw notFound(`Thread ${threadId}`);
    return row.strategy;
  }

  /**
   * Gives a thread of this user another title. Its `updatedAt` stays: it says when the
   * conversation last changed, which is what the thread list is ordered and grouped by.
   */
  async rename(access: OrgAccess, subject: Subject | undefined, threadId: string, title: string): Promise<ThreadSummary> {
    const trimmed = title.trim().replace(/\s+/g, ' ');
    if (trimmed === '') throw invalidInput('title must not be empty.');
    const [row] = await this.db
      .update(agentThreads)
      .set({ title: trimmed.slice(0, MAX_TITLE) })
      .where(and(this.ofUser(access, subject), eq(agentThreads.id, threadId)))
      .returning({
        id: agentThreads.id,
        title: agentThreads.title,
        createdAt: agentThreads.createdAt,
        updatedAt: agentThreads.updatedAt,
      });
    if (!row) throw notFound(`Thread ${threadId}`);
    return row;
  }

  async delete(access: OrgAccess, subject: Subject | undefined, threadId: string): Promise<void> {
    const deleted = await this.db
      .delete(agentThreads)
      .where(and(this.ofUser(access, subject), eq(agentThreads.id, threadId)))
      .returning({ id: agentThreads.id });
    if (deleted.length === 0) throw notFound(`Thread ${threadId}`);
  }

  /**
   * The history a new turn starts from; `truncateTo` keeps that many messages (edit and resubmit).
   * The thread itself changes when the turn's steps are written: the turn holding a thread is its
   * only writer.
   */
  async historyFor(
    access: OrgAccess,
    subject: Subject,
    threadId: string,
    truncateTo?: number,
  ): Promise<{ messages: ModelMessage[]; workingState: WorkingState; stored: number; strategy: string }> {
    const thread = await this.get(access, subject, threadId);
    if (truncateTo !== undefined && (truncateTo < 0 || truncateTo > thread.messages.length)) {
      throw invalidInput(
        `truncate_thread_to_message_count is ${truncateTo}, but the thread has ${thread.messages.length} messages.`,
      );
    }
    const messages = truncateTo === undefined ? thread.messages : thread.messages.slice(0, truncateTo);
    return { messages, workingState: thread.workingState, stored: thread.messages.length, strategy: thread.strategy };
  }

  /**
   * Adds messages that did not come from a turn (a query the person ran directly) to the end of a
   * thread of this user. A thread holding a turn is refused: the turn is its only writer meanwhile.
   */
  async append(access: OrgAccess, subject: Subject, threadId: string, messages: ModelMessage[]): Promise<void> {
    const busy = this.db
      .select({ id: agentTurns.id })
      .from(agentTurns)
      .where(and(eq(agentTurns.threadId, agentThreads.id), inArray(agentTurns.status, ['running', 'paused'])));
    const updated = await this.db
      .update(agentThreads)
      .set({ messages: appendedMessages(agentThreads.messages, 'all', messages), updatedAt: new Date() })
      .where(and(this.ofUser(access, subject), eq(agentThreads.id, threadId), notExists(busy)))
      .returning({ id: agentThreads.id });
    if (updated.length > 0) return;
    await this.get(access, subject, threadId);
    throw conflict(
      `Thread ${threadId} has a turn running or waiting for a decision; wait for it to end (or stop it), then send the message again.`,
    );
  }

  /** The messages of a thread a turn holds (its valid stored ones stay, `tail` follows), and what it works on. */
  async writeTurn(
    db: Db,
    threadId: string,
    stored: StoredMessages,
    tail: ModelMessage[],
    state: { workingState: WorkingState; model: string; strategy: string },
  ): Promise<void> {
    await db
      .update(agentThreads)
      .set({
        messages: appendedMessages(agentThreads.messages, stored, tail),
        workingState: state.workingState,
        model: state.model,
        strategy: state.strategy,
        updatedAt: new Date(),
      })
      .where(eq(agentThreads.id, threadId));
  }

  /** A thread's working state, its row locked for the caller's transaction; null when the thread is gone. */
  async lockedWorkingState(db: Db, threadId: string): Promise<WorkingState | null> {
    const [row] = await db
      .select({ workingState: agentThreads.workingState })
      .from(agentThreads)
      .where(eq(agentThreads.id, threadId))
      .for('update');
    return row ? (row.workingState as WorkingState) : null;
  }

  /** Replaces a thread's working state (an undo pointing it at what is current again). */
  async setWorkingState(db: Db, threadId: string, workingState: WorkingState): Promise<void> {
    await db.update(agentThreads).set({ workingState, updatedAt: new Date() }).where(eq(agentThreads.id, threadId));
  }

  /** The stored messages of a thread (a turn continued in another process reads them back). */
  async messagesOf(threadId: string): Promise<ModelMessage[]> {
    const [row] = await this.db
      .select({ messages: agentThreads.messages })
      .from(agentThreads)
      .where(eq(agentThreads.id, threadId));
    return (row?.messages ?? []) as ModelMessage[];
  }
}
