import { type Db, tables } from '@docagent/core';
import { and, asc, eq, gt, max, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AgentEvent, EventSink, StepFrames, StoredFrame, TurnOutput } from './events.ts';
import { FrameBatch, type FrameOwner, type TurnFrame } from './frame-batch.ts';

const { agentTurnEvents, agentTurns } = tables;

const TERMINAL = new Set(['done', 'error']);
export const isTerminal = (event: AgentEvent) => TERMINAL.has(event.type);
/**
 * Frames written in the background (FrameBatch): a step's tokens, and its calls and results,
 * which the step's commit writes with its `round_executed` when they are still waiting.
 */
const UNWAITED_FRAMES = new Set(['assistant_text_chunk', 'thinking_chunk', 'tool_calls', 'tool_result']);
/** How many quiet polls a follower waits for the last frames of a turn that is no longer running. */
const ENDED_TURN_POLLS = 25;

/**
 * The INSERT of frames given as one JSON array of StoredFrame (values, or the placeholders of a
 * statement prepared once: a step's commit carries it), of the turn `turnId`, or of several turns
 * when `turnId` reads each frame's own (`f`, a TurnFrame). One array, not a row of
 * parameters each: a streamed step writes dozens, and building a VALUES list cost the query
 * builder about 16 µs a row against 7 µs in all.
 */
export function framesInsertOf(turnId: SQLWrapper | string, frames: SQLWrapper | string): SQL {
  const { turnId: turn, seq, frame } = agentTurnEvents;
  const columns = sql.join(
    [turn, seq, frame].map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  return sql`insert into ${agentTurnEvents} (${columns})
    select ${turnId}, (f->>'seq')::int, f->'event' from json_array_elements(${frames}::json) as f`;
}

/** The frames of a turn, numbered from 1, kept so that a reconnecting client can catch up. */
export class TurnEventLog {
  readonly db: Db;
  private readonly batch = new FrameBatch((frames) => this.appendFrames(frames));

  constructor(db: Db) {
    this.db = db;
  }

  async append(turnId: string, frames: StoredFrame[]): Promise<void> {
    await this.db.execute(framesInsertOf(turnId, JSON.stringify(frames)));
  }

  /** Frames of any turns in one INSERT, each naming its turn. */
  async appendFrames(frames: TurnFrame[]): Promise<void> {
    await this.db.execute(framesInsertOf(sql`f->>'turn_id'`, JSON.stringify(frames)));
  }

  /** Writes the frames of one run of a turn, in order. */
  writer(turnId: string): FrameWriter {
    return new FrameWriter(this.batch, turnId);
  }

  async lastSeq(turnId: string): Promise<number> {
    const [row] = await this.db
      .select({ seq: max(agentTurnEvents.seq) })
      .from(agentTurnEvents)
      .where(eq(agentTurnEvents.turnId, turnId));
    return row?.seq ?? 0;
  }

  private async running(turnId: string): Promise<boolean> {
    const [row] = await this.db.select({ status: agentTurns.status }).from(agentTurns).where(eq(agentTurns.id, turnId));
    return row?.status === 'running';
  }

  async after(turnId: string, seq: number): Promise<StoredFrame[]> {
    const rows = await this.db
      .select({ seq: agentTurnEvents.seq, frame: agentTurnEvents.frame })
      .from(agentTurnEvents)
      .where(and(eq(agentTurnEvents.turnId, turnId), gt(agentTurnEvents.seq, seq)))
      .orderBy(asc(agentTurnEvents.seq));
    return rows.map((r) => ({ seq: r.seq, event: r.frame as unknown as AgentEvent }));
  }

  /** Replays what came after `seq`, then follows the live turn (from any process) until it ends. */
  async *follow(turnId: string, seq: number, signal: AbortSignal, pollMs = 200): AsyncGenerator<StoredFrame> {
    let last = seq;
    let quietSinceEnd = 0;
    while (!signal.aborted) {
      const frames = await this.after(turnId, last);
      for (const frame of frames) {
        last = frame.seq;
        yield frame;
        if (isTerminal(frame.event)) return;
      }
      if (frames.length > 0) {
        quietSinceEnd = 0;
        continue;
      }
      // A turn that paused or ended is saved with its last frames, but one that failed before its
      // error frame is written, so that is waited for a while; one that is gone (its document
      // deleted) writes no more: end then.
      if (!(await this.running(turnId)) && ++quietSinceEnd > ENDED_TURN_POLLS) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}

/**
 * Writes a turn's frames to the log. A step's tokens, calls and results are not waited for:
 * they go to the process's FrameBatch, written with every other turn's within its batch time, so
 * a streaming step costs a few shared writes instead of one per token (a replaying client sees
 * them that much later). Every other frame is written, with all frames before it, before it goes
 * out; those that end a step, pause the turn or end it are written by the step's own commit
 * (stage), with the state they announce: a client that has seen one finds the turn whole in the
 * log, and a continuation on any process finds the turn paused only with its frames there, and
 * numbers its own on from them.
 */
export class FrameWriter implements FrameOwner {
  private readonly batch: FrameBatch;
  private readonly turnId: string;
  failure: unknown;

  constructor(batch: FrameBatch, turnId: string) {
    this.batch = batch;
    this.turnId = turnId;
  }

  async write(seq: number, event: AgentEvent): Promise<void> {
    if (this.failure) throw this.failure;
    this.batch.add(this, this.turnId, { seq, event });
    if (UNWAITED_FRAMES.has(event.type)) {
      this.batch.schedule();
      return;
    }
    await this.batch.flush();
    if (this.failure) throw this.failure;
  }

  /**
   * The frames not written yet and `closing` after them, for a step's commit to write. A
   * background write still under way ends first, so once the step commits every frame before its
   * closing ones is in the log.
   */
  async stage(closing: StoredFrame[]): Promise<StoredFrame[]> {
    const waiting = this.batch.take(this);
    await this.batch.written(this);
    if (this.failure) throw this.failure;
    return [...waiting, ...closing];
  }
}

/** Receives each frame with its sequence number within the turn (the SSE `id:`). */
export type FrameSink = (seq: number, event: AgentEvent) => void | Promise<void>;

/**
 * A run's output when its frames are kept for replay: numbers each frame, writes it to the turn's
 * log (see FrameWriter) and then delivers it; the frames that close a step are written by the
 * step's own commit (StepFrames) and delivered once it committed.
 */
export class FrameRecorder implements TurnOutput {
  private readonly events: TurnEventLog;
  private readonly deliver: FrameSink;
  private seq: number;
  private log: FrameWriter | undefined;

  constructor(events: TurnEventLog, firstSeq: number, deliver: FrameSink) {
    this.events = events;
    this.seq = firstSeq;
    this.deliver = deliver;
  }

  readonly emit: EventSink = async (event) => {
    if (event.type === 'turn_started') this.log = this.events.writer(event.turn_id);
    this.seq += 1;
    await this.log?.write(this.seq, event);
    await this.deliver(this.seq, event);
  };

  readonly frames: StepFrames = {
    stage: async (closing) => {
      const numbered = closing.map((event) => ({ seq: ++this.seq, event }));
      return {
        write: (await this.log?.stage(numbered)) ?? [],
        deliver: async () => {
          for (const { seq, event } of numbered) await this.deliver(seq, event);
        },
      };
    },
  };
}
