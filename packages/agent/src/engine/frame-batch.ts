import type { StoredFrame } from './events.ts';

/** A frame with the turn it belongs to, as the INSERT of several turns' frames takes it. */
export interface TurnFrame extends StoredFrame {
  turn_id: string;
}

/** Whoever added frames to a batch, told there when their write failed. */
export interface FrameOwner {
  failure: unknown;
}

/** How long background frames gather before they are written together. */
const BATCH_MS = 200;
/**
 * Past this many frames a write leaves the next turns' to the write after it. At 200 turns
 * streaming, a batch of every turn's frames (about 2,400) took up to 73 ms on PostgreSQL, and the
 * embedded database, which runs one statement at a time, held every other statement back meanwhile.
 */
const MOST_FRAMES_A_WRITE = 250;

/** One owner's frames waiting to be written. */
interface Waiting {
  turnId: string;
  frames: StoredFrame[];
}

/**
 * The frames of every turn of a process that are written in the background (see FrameWriter),
 * gathered for up to BATCH_MS and written together, MOST_FRAMES_A_WRITE to an INSERT. One batch
 * per turn made the frame log's INSERTs grow with the turns running: at 200 turns streaming at
 * once, about a thousand a second, a fifth of all statements in the concurrency benchmark, and on
 * the embedded database each one a turn of its single thread. Now they come once per batch time
 * (and whenever a frame must be written before it goes out, which writes all that waits).
 * A write that fails is tried again turn by turn, so that one turn's frames (its turn deleted
 * meanwhile, say) fail that turn alone.
 */
export class FrameBatch {
  private readonly write: (frames: TurnFrame[]) => Promise<void>;
  private readonly pending = new Map<FrameOwner, Waiting>();
  private timer: NodeJS.Timeout | undefined;
  /** The write under way, and whose frames it holds. */
  private underWay: { owners: Set<FrameOwner>; done: Promise<void> } | undefined;
  /** The write that starts when the one under way has ended; what waits then goes in it. */
  private next: Promise<void> | undefined;

  constructor(write: (frames: TurnFrame[]) => Promise<void>) {
    this.write = write;
  }

  add(owner: FrameOwner, turnId: string, frame: StoredFrame): void {
    const waiting = this.pending.get(owner);
    if (waiting) waiting.frames.push(frame);
    else this.pending.set(owner, { turnId, frames: [frame] });
  }

  /** Writes what waits once the batch time has passed. */
  schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, BATCH_MS);
  }

  /**
   * Writes what waits when the write under way (if any) has ended, in one statement. Frames that
   * arrive during a write wait for their own batch time: when each write went on to write what
   * came in meanwhile, a loaded server whose writes were slow wrote its streamed tokens one or two
   * at a time (the concurrency benchmark: 5,599 frame INSERTs then, 3,616 with this). A flush
   * while the next write waits to start joins it: one write queued per frame that must be written
   * first made, at 200 turns starting at once, a chain of 200 writes one after another.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.next ??= (async () => {
      await this.underWay?.done;
      this.next = undefined;
      await this.writeWaiting();
    })();
    return this.next;
  }

  /** The owner's frames not written yet, taken out of the batch: no later write carries them. */
  take(owner: FrameOwner): StoredFrame[] {
    const waiting = this.pending.get(owner);
    this.pending.delete(owner);
    return waiting?.frames ?? [];
  }

  /**
   * Resolves once the write under way has ended, if it holds frames of the owner's: a step that
   * commits its closing frames waits for its earlier ones, not for other turns' writes.
   */
  async written(owner: FrameOwner): Promise<void> {
    if (this.underWay?.owners.has(owner)) await this.underWay.done;
  }

  private async writeWaiting(): Promise<void> {
    const batch: Array<[FrameOwner, Waiting]> = [];
    let frames = 0;
    for (const [owner, waiting] of this.pending) {
      if (frames > 0 && frames + waiting.frames.length > MOST_FRAMES_A_WRITE) break;
      batch.push([owner, waiting]);
      frames += waiting.frames.length;
    }
    if (batch.length === 0) return;
    for (const [owner] of batch) this.pending.delete(owner);
    const underWay = { owners: new Set(batch.map(([owner]) => owner)), done: this.insert(batch) };
    this.underWay = underWay;
    // What did not fit is due already: it goes in the write after this one, and a flush that
    // wrote part of what waited ends when the rest is written too.
    const rest = this.pending.size > 0 ? this.flush() : undefined;
    await underWay.done;
    if (this.underWay === underWay) this.underWay = undefined;
    await rest;
  }

  /** Never rejects: a failure goes to the owners whose frames it lost. */
  private async insert(batch: Array<[FrameOwner, Waiting]>): Promise<void> {
    const framesOf = ({ turnId, frames }: Waiting): TurnFrame[] => frames.map((frame) => ({ turn_id: turnId, ...frame }));
    try {
      await this.write(batch.flatMap(([, waiting]) => framesOf(waiting)));
    } catch (error) {
      // A write of one turn's frames has its answer; one of several is tried again turn by turn.
      const retry = batch.length > 1;
      for (const [owner, waiting] of batch) {
        if (!retry) owner.failure = error;
        else await this.write(framesOf(waiting)).catch((ownError: unknown) => (owner.failure = ownError));
      }
    }
  }
}
