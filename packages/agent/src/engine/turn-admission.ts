/**
 * How many turns this process starts at once: a turn counts as starting from its admission until
 * its first model call goes out (the model choices, the turn's row, the context's reads), and
 * further turns wait their place in the order they came. Turns already running (their frames,
 * their steps, their continuations) are never held back: when many conversations start together,
 * the frames of those streaming already are not queued behind all the others' starts. At 200
 * turns started together (the concurrency benchmark, nine runs each, alternating with the code
 * before; BENCHMARKS.md, nineteenth session) the frames' p99 went from a median of 127 to 94 ms
 * on PostgreSQL and of 326 to 90 ms on the embedded database, whose longest event-loop stall went
 * from 163-472 ms to 78-161 ms; the turns took no longer.
 */
export const TURN_STARTS_AT_ONCE = 4;

export class TurnAdmission {
  private readonly limit: number;
  private starting = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(limit = TURN_STARTS_AT_ONCE) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`a turn admission takes at least 1 turn at once (got ${limit})`);
    this.limit = limit;
  }

  /**
   * Waits for the turn's place; the answer gives the place up (to the next turn waiting), once
   * however often it is called: when the first model call starts, and again when the run ends.
   */
  async enter(): Promise<() => void> {
    if (this.starting < this.limit) this.starting += 1;
    else await new Promise<void>((admit) => this.waiting.push(admit));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      // The place passes straight to the next turn, so one arriving meanwhile cannot jump the queue.
      if (next) next();
      else this.starting -= 1;
    };
  }
}
