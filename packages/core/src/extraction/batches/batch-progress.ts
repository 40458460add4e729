import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { type BatchItemStatus, promptBatches, promptBatchItems } from '../../db/schema.ts';

export type BatchCounts = Record<BatchItemStatus, number> & { total: number };

/** How many of the batch's documents are in each state. */
export async function batchCounts(db: Db, batchId: string): Promise<BatchCounts> {
  const rows = await db
    .select({ status: promptBatchItems.status, n: count() })
    .from(promptBatchItems)
    .where(eq(promptBatchItems.batchId, batchId))
    .groupBy(promptBatchItems.status);
  const counts: BatchCounts = { pending: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, total: 0 };
  for (const row of rows) {
    counts[row.status] = Number(row.n);
    counts.total += Number(row.n);
  }
  return counts;
}

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
