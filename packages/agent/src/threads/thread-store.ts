import { type Db, getDocument, invalidInput, newId, notFound, type OrgAccess, tables } from '@docagent/core';
import type { ModelMessage } from 'ai';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { WorkingState } from '../tools/tool.ts';

const { agentThreads } = tables;

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
}

const MAX_TITLE = 200;

/** A user's conversations about one document. Every message is kept; windowing happens when sending. */
export class ThreadStore {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  private ofUser(access: OrgAccess, documentId: string) {
    return and(
      eq(agentThreads.orgId, access.orgId),
      eq(agentThreads.documentId, documentId),
      access.userId === null ? isNull(agentThreads.userId) : eq(agentThreads.userId, access.userId),
    );
  }

  /**
   * A new thread on a document of the organization (another organization's is "not found"),
   * empty or continuing from `start` (e.g. an auto-create proposal to refine).
   */
  async createFor(
    access: OrgAccess,
    documentId: string,
    title?: string,
    start?: { messages: ModelMessage[]; workingState: WorkingState },
  ): Promise<Thread> {
    await getDocument(this.db, access.orgId, documentId);
    const now = new Date();
    const thread: Thread = {
      id: newId(),
      title: (title?.trim() || 'New conversation').slice(0, MAX_TITLE),
      messages: start?.messages ?? [],
      workingState: start?.workingState ?? {},
      model: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.insert(agentThreads).values({
      id: thread.id,
      orgId: access.orgId,
      userId: access.userId,
      documentId,
      title: thread.title,
      messages: thread.messages as unknown[],
      workingState: thread.workingState as Record<string, unknown>,
      createdAt: now,
      updatedAt: now,
    });
    return thread;
  }

  /** This user's threads on a document of the organization (another organization's is "not found"). */
  async list(access: OrgAccess, documentId: string): Promise<ThreadSummary[]> {
    await getDocument(this.db, access.orgId, documentId);
    return this.db
      .select({
        id: agentThreads.id,
        title: agentThreads.title,
        createdAt: agentThreads.createdAt,
        updatedAt: agentThreads.updatedAt,
      })
      .from(agentThreads)
      .where(this.ofUser(access, documentId))
      .orderBy(desc(agentThreads.updatedAt))
      .limit(200);
  }

  /** A thread of this user on this document; any other is "not found". */
  async get(access: OrgAccess, documentId: string, threadId: string): Promise<Thread> {
    const [row] = await this.db
      .select()
      .from(agentThreads)
      .where(and(this.ofUser(access, documentId), eq(agentThreads.id, threadId)));
    if (!row) throw notFound(`Thread ${threadId}`);
    return {
      id: row.id,
      title: row.title,
      messages: row.messages as ModelMessage[],
      workingState: row.workingState as WorkingState,
      model: row.model,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async delete(access: OrgAccess, documentId: string, threadId: string): Promise<void> {
    const deleted = await this.db
      .delete(agentThreads)
      .where(and(this.ofUser(access, documentId), eq(agentThreads.id, threadId)))
      .returning({ id: agentThreads.id });
    if (deleted.length === 0) throw notFound(`Thread ${threadId}`);
  }

  /**
   * The history a new turn starts from; `truncateTo` keeps that many messages (edit and resubmit).
   * The thread itself changes when the turn saves: the turn holding a thread is its only writer.
   */
  async historyFor(
    access: OrgAccess,
    documentId: string,
    threadId: string,
    truncateTo?: number,
  ): Promise<{ messages: ModelMessage[]; workingState: WorkingState }> {
    const thread = await this.get(access, documentId, threadId);
    if (truncateTo !== undefined && (truncateTo < 0 || truncateTo > thread.messages.length)) {
      throw invalidInput(
        `truncate_thread_to_message_count is ${truncateTo}, but the thread has ${thread.messages.length} messages.`,
      );
    }
    const messages = truncateTo === undefined ? thread.messages : thread.messages.slice(0, truncateTo);
    return { messages, workingState: thread.workingState };
  }
}
