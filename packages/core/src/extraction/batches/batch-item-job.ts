import { and, eq } from 'drizzle-orm';
import { promptBatches, promptBatchItems } from '../../db/schema.ts';
import { failureMessage } from '../../scrub-errors.ts';
import { answerExtraction, type ExtractionServices, runExtraction } from '../run-extraction.ts';
import { finishBatchIfDone } from './batch-progress.ts';

/**
 * One document of a batch: runs the batch's prompt revision on it (afresh: a batch is asked for to
 * run) and records the outcome on the item. A run stores the answer as the document's result; an
 * evaluation keeps it on the item only (the document's results, the verified truth among them,
 * stay as they are). An item no longer pending (cancelled, already done by
 * an earlier attempt) is left alone. Failures are recorded, not retried: the person retries the
 * failed ones.
 */
export async function runBatchItem(services: ExtractionServices, batchId: string, documentId: string): Promise<void> {
  const { db } = services;
  const [claimed] = await db
    .update(promptBatchItems)
    .set({ status: 'running', updatedAt: new Date() })
    .where(
      and(
        eq(promptBatchItems.batchId, batchId),
        eq(promptBatchItems.documentId, documentId),
        eq(promptBatchItems.status, 'pending'),
      ),
    )
    .returning({ attempts: promptBatchItems.attempts });
  if (!claimed) return;
  const [batch] = await db
    .select({
      orgId: promptBatches.orgId,
      promptRevid: promptBatches.promptRevid,
      status: promptBatches.status,
      kind: promptBatches.kind,
    })
    .from(promptBatches)
    .where(eq(promptBatches.id, batchId));
  if (!batch) return;
  let outcome: { status: 'succeeded' | 'failed' | 'cancelled'; error: string | null; answer?: Record<string, unknown> };
  if (batch.status === 'cancelled') outcome = { status: 'cancelled', error: null };
  else {
    try {
      if (batch.kind === 'evaluation') {
        const { value } = await answerExtraction(services, batch.orgId, documentId, batch.promptRevid);
        outcome = { status: 'succeeded', error: null, answer: value };
      } else {
        await runExtraction(services, batch.orgId, documentId, batch.promptRevid, { force: true });
        outcome = { status: 'succeeded', error: null };
      }
    } catch (error) {
      outcome = { status: 'failed', error: failureMessage(error).slice(0, 2000) };
    }
  }
  await db
    .update(promptBatchItems)
    .set({ ...outcome, attempts: claimed.attempts + 1, updatedAt: new Date() })
    .where(and(eq(promptBatchItems.batchId, batchId), eq(promptBatchItems.documentId, documentId)));
  await finishBatchIfDone(db, batchId);
}
