import type { Db, UsageEntry } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { ThreadStore } from '../threads/thread-store.ts';
import type { StoredFrame } from './events.ts';
import { appendRunRecord } from './run-records.ts';
import type { AuditedCall, StoredMessages, Turn } from './turn-state.ts';
import type { TurnStore } from './turn-store.ts';

/**
 * Writes what a turn did, a step at a time, at once: the step's messages appended to the thread
 * (or, without a thread, to the turn row), its frames to the replay log, its audited calls
 * appended to the run record, and the turn's state. Without a thread that is one statement (the
 * turn's update carries the others as its WITH clauses: one round trip, all or nothing); with one,
 * a transaction. A step sends only what it added, never the conversation whole (the database
 * still rewrites a long thread's stored array on each append: README, design notes).
 */
export class TurnJournal {
  readonly db: Db;
  private readonly turns: TurnStore;
  private readonly threads: ThreadStore;

  constructor(db: Db, turns: TurnStore, threads: ThreadStore) {
    this.db = db;
    this.turns = turns;
    this.threads = threads;
  }

  /**
   * Stores a new turn; a thread already running one refuses it (409). Its run record comes with
   * its first commit (run-records.ts).
   */
  open(input: Parameters<TurnStore['create']>[0]): Promise<Turn> {
    return this.turns.create(input);
  }

  /** The whole conversation of a stored turn, from its thread or its own row. */
  async messagesOf(turn: Turn): Promise<ModelMessage[]> {
    return turn.threadId ? this.threads.messagesOf(turn.threadId) : this.turns.messagesOf(turn.id);
  }

  /**
   * Writes the turn's state and what changed since the last write: the messages after the valid
   * stored ones (`stored` says how many are stored and valid; it is updated), `calls`, the model
   * calls' `usage` entries for the ledger, and `frames`. A failed turn writes no
   * messages (`withMessages: false`): what its finished steps said is stored already, and a
   * message that failed is not stored twice when sent again. Answers whether a stop was asked
   * for the turn.
   */
  async commit(
    turn: Turn,
    stored: StoredMessages,
    calls: AuditedCall[],
    options: { withMessages?: boolean; frames?: StoredFrame[]; usage?: UsageEntry[] } = {},
  ): Promise<boolean> {
    const tail = turn.messages.slice(stored.valid);
    const writeMessages = (options.withMessages ?? true) && (tail.length > 0 || stored.valid !== stored.stored);
    const save = (db: Db) =>
      this.turns.save(turn, db, {
        ...(writeMessages && !turn.threadId ? { messages: { stored, tail } } : {}),
        frames: options.frames ?? [],
        usage: options.usage ?? [],
        calls,
      });
    const stopRequested =
      writeMessages && turn.threadId
        ? await this.db.transaction(async (tx) => {
            await this.threads.writeTurn(tx, turn.threadId as string, stored, tail, {
              workingState: turn.workingState,
              model: turn.settings.model,
              strategy: turn.settings.strategy,
            });
            return save(tx);
          })
        : await save(this.db);
    if (writeMessages) {
      stored.stored = turn.messages.length;
      stored.valid = turn.messages.length;
    }
    return stopRequested;
  }

  /** Brings the run record of a turn ended from outside (reaped, expired) up to date. */
  async recordEnd(turn: Turn): Promise<void> {
    await appendRunRecord(this.db, turn, []);
  }
}
