import { type Db, tables } from '@docagent/core';
import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { AgentEvent } from './events.ts';

const { agentTurnEvents, agentTurns } = tables;

export interface StoredFrame {
  seq: number;
  event: AgentEvent;
}

const TERMINAL = new Set(['done', 'error']);
export const isTerminal = (event: AgentEvent) => TERMINAL.has(event.type);

/** The frames of a turn, numbered from 1, kept so that a reconnecting client can catch up. */
export class TurnEventLog {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async append(turnId: string, seq: number, event: AgentEvent): Promise<void> {
    await this.db.insert(agentTurnEvents).values({ turnId, seq, frame: event as unknown as Record<string, unknown> });
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
    while (!signal.aborted) {
      const frames = await this.after(turnId, last);
      for (const frame of frames) {
        last = frame.seq;
        yield frame;
        if (isTerminal(frame.event)) return;
      }
      if (frames.length > 0) continue;
      // A turn whose process died writes no more frames: end after one last look.
      if (!(await this.running(turnId))) {
        for (const frame of await this.after(turnId, last)) yield frame;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}
