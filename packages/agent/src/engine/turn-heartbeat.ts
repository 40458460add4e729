import type { TurnStore } from './turn-store.ts';

/**
 * Keeps the heartbeat of the turns running in this process fresh, so that another process can
 * tell a live turn from one whose process died. A turn found no longer running at a beat was
 * ended elsewhere (taken for dead after a long stall): it is aborted here rather than going on. A
 * turn found with its stop asked is aborted too: the beat is the backstop of the stop notice
 * (agent-engine.ts), which is lost when it is sent while this process's listening connection is down.
 */
export class TurnHeartbeat {
  private readonly turns: TurnStore;
  private readonly intervalMs: number;
  private readonly running = new Map<string, AbortController>();
  private timer: NodeJS.Timeout | undefined;

  constructor(turns: TurnStore, intervalMs: number) {
    this.turns = turns;
    this.intervalMs = intervalMs;
  }

  add(turnId: string, controller: AbortController): void {
    this.running.set(turnId, controller);
    this.timer ??= setInterval(() => void this.beat(), this.intervalMs).unref();
  }

  delete(turnId: string): void {
    this.running.delete(turnId);
    if (this.running.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  get(turnId: string): AbortController | undefined {
    return this.running.get(turnId);
  }

  private async beat(): Promise<void> {
    const ids = [...this.running.keys()];
    const alive = await this.turns.beat(ids).catch(() => undefined);
    // A failed beat proves nothing about the turns; the next one tries again.
    if (!alive) return;
    for (const id of ids) if (alive.get(id)?.stop !== false) this.running.get(id)?.abort();
  }
}
