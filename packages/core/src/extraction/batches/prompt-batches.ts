import { and, arrayContains, asc, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  BATCH_ITEM_STATUSES,
  type BatchItemStatus,
  type BatchKind,
  documents,
  promptBatches,
  promptBatchItems,
} from '../../db/schema.ts';
import { conflict, invalidInput, notFound } from '../../errors.ts';
import { actorName, type OrgAccess } from '../../identity/access.ts';
import { newId } from '../../ids.ts';
import { listPromptVersions } from '../../prompts/prompts.ts';
import { escapeLike } from '../../sql-text.ts';
import { type BatchCounts, batchCounts } from './batch-progress.ts';

/** Hands a batch's documents to the job queue, one job each. */
export interface BatchScheduler {
  scheduleBatchItems(batchId: string, documentIds: string[]): Promise<void>;
}

export interface BatchServices {
  db: Db;
  scheduler: BatchScheduler;
}

export const BATCH_LIMITS = { documents: 1000 };

export { BATCH_ITEM_STATUSES, type BatchItemStatus };

/** Which documents a batch runs on: chosen ones, those with all these tags, or those whose name contains a text. */
export type BatchSelection = { documentIds: string[] } | { tagIds: string[] } | { nameSearch: string };

export interface BatchRecord {
  id: string;
  promptId: string;
  promptRevid: string;
  selection: Record<string, unknown>;
  /** 'run' stores the answers as results; 'evaluation' scores them against verified results (evaluation/). */
  kind: BatchKind;
  status: 'running' | 'finished' | 'cancelled';
  createdBy: string;
  createdAt: Date;
  finishedAt: Date | null;
  counts: BatchCounts;
}

export interface BatchItemRecord {
  documentId: string;
  documentName: string;
  status: BatchItemStatus;
  error: string | null;
  attempts: number;
  updatedAt: Date;
}

async function selectedDocumentIds(db: Db, orgId: string, selection: BatchSelection): Promise<string[]> {
  const where: SQL[] = [eq(documents.orgId, orgId)];
  if ('documentIds' in selection) {
    const ids = [...new Set(selection.documentIds)];
    if (ids.length === 0) throw invalidInput('Choose at least one document.');
    where.push(inArray(documents.id, ids));
    const found = await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(...where));
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0) throw notFound(`Document ${missing[0]}`);
    return ids;
  }
  if ('tagIds' in selection) {
    if (selection.tagIds.length === 0) throw invalidInput('Give at least one tag.');
    where.push(arrayContains(documents.tagIds, selection.tagIds));
  } else where.push(ilike(documents.name, `%${escapeLike(selection.nameSearch)}%`));
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(...where))
    .orderBy(asc(documents.uploadedAt), asc(documents.id))
    .limit(BATCH_LIMITS.documents + 1);
  return rows.map((r) => r.id);
}

/**
 * Runs a revision of the prompt (the latest by default) over the chosen documents, a job each.
 * At most BATCH_LIMITS.documents documents; none chosen is a mistake to point out.
 */
export async function createBatch(
  services: BatchServices,
  access: OrgAccess,
  promptId: string,
  input: { promptRevid?: string; selection: BatchSelection },
): Promise<BatchRecord> {
  const { db } = services;
  const versions = await listPromptVersions(db, access.orgId, promptId);
  const revision = input.promptRevid ? versions.find((v) => v.promptRevid === input.promptRevid) : versions[0];
  if (!revision) throw notFound(`Revision ${input.promptRevid} of prompt ${promptId}`);
  const documentIds = await selectedDocumentIds(db, access.orgId, input.selection);
  if (documentIds.length === 0) throw invalidInput('No document matches the selection; nothing to run.');
  if (documentIds.length > BATCH_LIMITS.documents) {
    throw invalidInput(`A batch runs on at most ${BATCH_LIMITS.documents} documents; narrow the selection.`);
  }
  const id = newId();
  const selection =
    'documentIds' in input.selection
      ? { document_ids: documentIds }
      : 'tagIds' in input.selection
        ? { tag_ids: input.selection.tagIds }
        : { name_search: input.selection.nameSearch };
  await db.transaction(async (tx) => {
    await tx.insert(promptBatches).values({
      id,
      orgId: access.orgId,
      promptId,
      promptRevid: revision.promptRevid,
      selection,
      createdBy: await actorName(tx, access),
    });
    await tx.insert(promptBatchItems).values(documentIds.map((documentId) => ({ batchId: id, documentId })));
  });
  await services.scheduler.scheduleBatchItems(id, documentIds);
  return getBatch(db, access.orgId, id);
}

export async function getBatch(db: Db, orgId: string, batchId: string): Promise<BatchRecord> {
  const [row] = await db
    .select()
    .from(promptBatches)
    .where(and(eq(promptBatches.id, batchId), eq(promptBatches.orgId, orgId)));
  if (!row) throw notFound(`Batch ${batchId}`);
  const { orgId: _org, ...batch } = row;
  return { ...batch, counts: await batchCounts(db, batchId) };
}

/** The batches of a prompt of a kind (runs by default; evaluations are listed as such), newest first. */
export async function listBatches(
  db: Db,
  orgId: string,
  promptId: string,
  limit = 20,
  kind: BatchKind = 'run',
): Promise<BatchRecord[]> {
  const rows = await db
    .select({ id: promptBatches.id })
    .from(promptBatches)
    .where(and(eq(promptBatches.orgId, orgId), eq(promptBatches.promptId, promptId), eq(promptBatches.kind, kind)))
    .orderBy(desc(promptBatches.createdAt))
    .limit(limit);
  return Promise.all(rows.map((r) => getBatch(db, orgId, r.id)));
}

/** The batch's documents with their outcome, failed first, then by name. */
export async function listBatchItems(
  db: Db,
  orgId: string,
  batchId: string,
  page: { skip: number; limit: number; status?: BatchItemStatus },
): Promise<{ items: BatchItemRecord[]; total: number }> {
  await getBatch(db, orgId, batchId);
  const where = and(eq(promptBatchItems.batchId, batchId), ...(page.status ? [eq(promptBatchItems.status, page.status)] : []));
  const rows = await db
    .select({
      documentId: promptBatchItems.documentId,
      documentName: documents.name,
      status: promptBatchItems.status,
      error: promptBatchItems.error,
      attempts: promptBatchItems.attempts,
      updatedAt: promptBatchItems.updatedAt,
    })
    .from(promptBatchItems)
    .innerJoin(documents, eq(documents.id, promptBatchItems.documentId))
    .where(where)
    .orderBy(asc(promptBatchItems.status), asc(documents.name), asc(promptBatchItems.documentId))
    .offset(page.skip)
    .limit(page.limit);
  const counts = await batchCounts(db, batchId);
  return { items: rows, total: page.status ? counts[page.status] : counts.total };
}

/** Stops a batch: documents not started are cancelled; ones running finish and keep their outcome. */
export async function cancelBatch(services: BatchServices, orgId: string, batchId: string): Promise<BatchRecord> {
  const { db } = services;
  const batch = await getBatch(db, orgId, batchId);
  if (batch.status !== 'running') return batch;
  await db.transaction(async (tx) => {
    await tx
      .update(promptBatchItems)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(and(eq(promptBatchItems.batchId, batchId), eq(promptBatchItems.status, 'pending')));
    await tx.update(promptBatches).set({ status: 'cancelled', finishedAt: new Date() }).where(eq(promptBatches.id, batchId));
  });
  return getBatch(db, orgId, batchId);
}

/** Runs the batch's failed documents again (only those); the batch runs until they are done. */
export async function retryFailedItems(services: BatchServices, orgId: string, batchId: string): Promise<BatchRecord> {
  const { db } = services;
  const batch = await getBatch(db, orgId, batchId);
  if (batch.status === 'running' && batch.counts.pending + batch.counts.running > 0) {
    throw conflict('The batch is still running; retry its failed documents once it has finished, or cancel it first.');
  }
  const retried = await db.transaction(async (tx) => {
    const rows = await tx
      .update(promptBatchItems)
      .set({ status: 'pending', error: null, updatedAt: new Date() })
      .where(and(eq(promptBatchItems.batchId, batchId), eq(promptBatchItems.status, 'failed')))
      .returning({ documentId: promptBatchItems.documentId });
    if (rows.length > 0) {
      await tx.update(promptBatches).set({ status: 'running', finishedAt: null }).where(eq(promptBatches.id, batchId));
    }
    return rows.map((r) => r.documentId);
  });
  if (retried.length === 0) throw invalidInput('The batch has no failed documents to retry.');
  await services.scheduler.scheduleBatchItems(batchId, retried);
  return getBatch(db, orgId, batchId);
}
