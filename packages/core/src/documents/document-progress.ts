import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type DocumentState, documents, type ProgressStage } from '../db/schema.ts';

export { type DocumentProgress, PROGRESS_STAGES, type ProgressStage } from '../db/schema.ts';

/** Enough for a person watching, and a few writes a second at most however fast pages go. */
const WRITE_INTERVAL_MS = 500;

/** A stage's progress is written only while the document is in its state: not after it ended, nor for another stage. */
const STATE_OF_STAGE: Record<ProgressStage, DocumentState> = { text: 'ocr_processing', extraction: 'llm_processing' };

type Count = { done: number; total: number };

const sameCount = (a: Count | undefined, b: Count | undefined) => a?.done === b?.done && a?.total === b?.total;

/**
 * A stage's progress on its document. A report is not written at once: the latest one is, one write
 * at a time and one per WRITE_INTERVAL_MS at most, so that a burst of pages costs a write or two.
 * `end` drops what is not written yet and clears the stage's progress: the stage calls it when its
 * work is over, before it settles the document's state.
 */
export class StageProgress {
  private readonly db: Db;
  private readonly documentId: string;
  private readonly stage: ProgressStage;
  private latest: Count | undefined;
  private written: Count | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private ended = false;

  constructor(db: Db, documentId: string, stage: ProgressStage) {
    this.db = db;
    this.documentId = documentId;
    this.stage = stage;
  }

  /** `done` of `total`; bound, so that it can be handed on as a callback. */
  readonly report = (done: number, total: number): void => {
    if (this.ended) return;
    this.latest = { done, total };
    this.schedule();
  };

  private schedule(): void {
    if (this.ended || this.timer || this.writing || sameCount(this.latest, this.written)) return;
    const wait = Math.max(0, this.lastWriteAt + WRITE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.write().finally(() => {
        this.writing = undefined;
        this.schedule();
      });
    }, wait);
  }

  private async write(): Promise<void> {
    const count = this.latest;
    if (!count) return;
    this.written = count;
    this.lastWriteAt = Date.now();
    try {
      await this.db
        .update(documents)
        .set({ progress: { stage: this.stage, ...count } })
        .where(and(eq(documents.id, this.documentId), eq(documents.state, STATE_OF_STAGE[this.stage])));
    } catch {
      // Progress is only shown: the stage goes on without it, and its own writes meet a database that fails.
    }
  }

  async end(): Promise<void> {
    this.ended = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    await this.db
      .update(documents)
      .set({ progress: null })
      .where(and(eq(documents.id, this.documentId), sql`${documents.progress}->>'stage' = ${this.stage}`));
  }
}
