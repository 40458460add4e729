import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { type BatchItemStatus, promptBatches, promptBatchItems } from '../../db/schema.ts';

export type BatchCounts = Record<BatchItemStatus, number> & { total: number };

/** A running batch none of whose documents is pending or running any more is finished. */
export async function finishBatchIfDone(db: Db, batchId: string): Promise<void> {
  await db
    .update(promptBatches)
    .set({ status: 'finished', finishedAt: new Date() })
    .where(
      and(
        eq(promptBatches.id, batchId),
        eq(promptBatches.status, 'running'),
        sql`not exists (select 1 from ${promptBatchItems} where ${promptBatchItems.batchId} = ${batchId} and ${inArray(promptBatchItems.status, ['pending', 'running'])})`,
      ),
    );
}
