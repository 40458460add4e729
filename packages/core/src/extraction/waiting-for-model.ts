import { createHash } from 'node:crypto';
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { documents } from '../db/schema.ts';
import type { ModelRegistry } from '../llm/model-registry.ts';

/**
 * Hands the documents whose prompts wait for a model to the prompts' job; implemented by the job
 * queue. Asked for when a provider is configured, and by every process that starts the queue (the
 * environment may have brought one).
 */
export interface WaitingExtractionsScheduler {
  /** One organization's waiting documents; without `orgId`, every organization's. */
  scheduleWaitingExtractions(orgId?: string): Promise<void>;
}

/** Documents handed on per read: a resumed run starts again from the first one still waiting. */
const BATCH = 100;

/**
 * The prompts' job found no provider: the document waits for one. A fresh time each time it is
 * set, so a document that waits again after being handed on is handed on again.
 */
export async function markWaitingForModel(db: Db, documentId: string): Promise<void> {
  await db.update(documents).set({ llmWaitingSince: new Date() }).where(eq(documents.id, documentId));
}

/**
 * The prompts' job id for one wait of one document: a run that crashed after queueing the job and
 * before clearing the wait queues it again under the same id, which the queue refuses as a copy.
 */
export function waitingJobId(documentId: string, since: Date): string {
  const hex = createHash('sha256').update(`${documentId}@${since.toISOString()}`).digest('hex');
  // Shaped as a UUID, the type pg-boss keys jobs with (PostgreSQL checks the shape, not the version).
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join('-');
}

export interface WaitingServices {
  db: Db;
  llm: ModelRegistry;
  /** Queues the prompts' job of a document under the given job id (a copy of a queued id is ignored). */
  send(documentId: string, jobId: string): Promise<void>;
}

/**
 * Queues the prompts' job of each waiting document of organizations that have a provider now,
 * then clears the document's wait. Resumable: a run stopped half-way leaves the rest waiting, and
 * its retry queues nothing twice (waitingJobId). A wait that began after the run did (the
 * provider went again meanwhile) is left for a later run. Returns how many were handed on.
 */
export async function resumeWaitingExtractions(services: WaitingServices, orgId?: string): Promise<number> {
  const { db } = services;
  const began = new Date();
  const waiting = and(isNotNull(documents.llmWaitingSince), lte(documents.llmWaitingSince, began));
  const orgs = await db
    .selectDistinct({ orgId: documents.orgId })
    .from(documents)
    .where(orgId === undefined ? waiting : and(waiting, eq(documents.orgId, orgId)));
  // Each wait once per run, so that a wait that cannot be cleared cannot keep the run going.
  const handed = new Set<string>();
  for (const org of orgs) {
    if ((await services.llm.providers(org.orgId)).length === 0) continue;
    for (;;) {
      const batch = await db
        .select({ id: documents.id, since: documents.llmWaitingSince })
        .from(documents)
        .where(and(waiting, eq(documents.orgId, org.orgId)))
        .orderBy(asc(documents.llmWaitingSince), asc(documents.id))
        .limit(BATCH);
      const fresh = batch.filter((doc) => doc.since && !handed.has(`${doc.id}@${doc.since.getTime()}`));
      if (fresh.length === 0) break;
      for (const { id, since } of fresh) {
        if (!since) continue;
        await services.send(id, waitingJobId(id, since));
        // Only this wait (compared at the millisecond a Date holds): one that began since stays.
        await db
          .update(documents)
          .set({ llmWaitingSince: null })
          .where(
            and(
              eq(documents.id, id),
              sql`date_trunc('milliseconds', ${documents.llmWaitingSince}) = ${since.toISOString()}::timestamptz`,
            ),
          );
        handed.add(`${id}@${since.getTime()}`);
      }
    }
  }
  return handed.size;
}
