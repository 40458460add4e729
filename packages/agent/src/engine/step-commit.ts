import { type Db, preparedPerDatabase, tables, type UsageEntry, usageInsertOf } from '@docagent/core';
import { eq, sql } from 'drizzle-orm';
import { keptAndAdded } from './appended-messages.ts';
import type { StoredFrame } from './events.ts';
import { runRecordUpsertOf, runRecordValues } from './run-records.ts';
import { framesInsertOf } from './turn-events.ts';
import { type AuditedCall, type StoredMessages, TURN_STATE_VERSION, type Turn } from './turn-state.ts';

const { agentTurns } = tables;
const p = sql.placeholder;

/** What a step writes besides the turn's state; any part may be empty. */
export interface StepWrites {
  /** A turn without a thread: its messages after the valid stored ones. */
  messages?: { stored: StoredMessages; tail: unknown[] };
  frames: StoredFrame[];
  usage: UsageEntry[];
  calls: AuditedCall[];
}

export const NO_STEP_WRITES: StepWrites = { frames: [], usage: [], calls: [] };

/**
 * A step's writes as one statement of one text: the turn's update carries the frames, the usage
 * entries and the run record as its WITH clauses (one round trip, all or nothing), every value a
 * parameter and a part with nothing to write an empty JSON array. So it is built once
 * (prepared-query.ts) and parsed and planned once per connection (statement-naming.ts): built at
 * each step, by parts, it took about 0.5 ms of the server's CPU and 0.4 ms of the database's to
 * parse and plan (BENCHMARKS.md, "Twelfth session"). JSON values go as JSON text with a cast:
 * drizzle's column encoders would write JSON `null` where the turn has SQL NULL.
 */
const stepCommit = preparedPerDatabase((db) => {
  const turnId = p('turnId');
  const carried = [
    db.$with('step_frames', {}).as(framesInsertOf(turnId, p('frames'))),
    db.$with('step_usage', {}).as(usageInsertOf(p('ledger'))),
    db.$with('step_record', {}).as(
      runRecordUpsertOf({
        turnId,
        orgId: p('orgId'),
        userId: p('userId'),
        subjectKind: p('subjectKind'),
        subjectId: p('subjectId'),
        status: p('status'),
        model: p('model'),
        toolCalls: p('toolCalls'),
        usage: p('usage'),
      }),
    ),
  ];
  const messages = keptAndAdded(agentTurns.messages, sql`kept.i <= ${p('valid')}::int`, p('added'));
  return db
    .with(...carried)
    .update(agentTurns)
    .set({
      // The run record's values (runRecordValues) name the turn's id and status too: one value each.
      status: sql`${p('status')}`,
      stateVersion: sql`${p('stateVersion')}::int`,
      pending: sql`${p('pending')}::json`,
      workingState: sql`${p('workingState')}::json`,
      progress: sql`${p('progress')}::jsonb`,
      expiresAt: sql`${p('expiresAt')}::timestamptz`,
      updatedAt: sql`now()`,
      messages: sql`case when ${p('writeMessages')}::boolean then ${messages} else ${agentTurns.messages} end`,
    })
    .where(eq(agentTurns.id, turnId))
    .returning({ stop: agentTurns.stopRequested });
});

/** Writes the turn's state (not its settings, written once: they never change) with `writes`. */
export async function commitStep(db: Db, turn: Turn, writes: StepWrites): Promise<boolean> {
  const { messages } = writes;
  const [row] = await stepCommit(db).execute({
    ...runRecordValues(turn, writes.calls),
    frames: JSON.stringify(writes.frames),
    ledger: JSON.stringify(writes.usage),
    stateVersion: TURN_STATE_VERSION,
    pending: turn.pending === null ? null : JSON.stringify(turn.pending),
    workingState: JSON.stringify(turn.workingState),
    progress: JSON.stringify(turn.progress),
    expiresAt: turn.expiresAt,
    writeMessages: messages !== undefined,
    valid: messages?.stored.valid ?? 0,
    added: JSON.stringify(messages?.tail ?? []),
  });
  return row?.stop ?? false;
}
