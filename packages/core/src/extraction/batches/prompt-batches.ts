import { and, arrayContains, asc, count, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { pageWithTotal, totalColumn } from '../../db/page-with-total.ts';
import {
  BATCH_ITEM_STATUSES,
  type BatchItemStatus,
  type BatchKind,
  documents,
  promptBatches,
  promptBatchItems,
  promptRevisions,
} from '../../db/schema.ts';
import { conflict, invalidInput, notFound } from '../../errors.ts';
import { actorName, type OrgAccess } from '../../identity/access.ts';
import { newId } from '../../ids.ts';
import { type PromptRevision, promptRevisionOf } from '../../prompts/prompts.ts';
import { escapeLike } from '../../sql-text.ts';
import type { BatchCounts } from './batch-progress.ts';

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
  const revision = await promptRevisionOf(db, access.orgId, promptId, input.promptRevid || undefined);
  const documentIds = await selectedDocumentIds(db, access.orgId, input.selection);
  if (documentIds.length === 0) throw invalidInput('No document matches the selection; nothing to run.');
  if (documentIds.length > BATCH_LIMITS.documents) {
    throw invalidInput(`A batch runs on at most ${BATCH_LIMITS.documents} documents; narrow the selection.`);
  }
  const selection =
    'documentIds' in input.selection
      ? { document_ids: documentIds }
      : 'tagIds' in input.selection
        ? { tag_ids: input.selection.tagIds }
        : { name_search: input.selection.nameSearch };
  const id = await insertBatch(services, access, revision, {
    kind: 'run',
    selection,
    items: documentIds.map((documentId) => ({ documentId })),
  });
  return getBatch(db, access.orgId, id);
}

/**
 * Records a batch of the prompt revision over the documents (for an evaluation, each with the
 * result it is scored against) and hands them to the job queue; its id.
 */
export async function insertBatch(
  services: BatchServices,
  access: OrgAccess,
  revision: Pick<PromptRevision, 'promptId' | 'promptRevid'>,
  batch: {
    kind: BatchKind;
    selection: Record<string, unknown>;
    items: Array<{ documentId: string; expected?: Record<string, unknown> }>;
  },
): Promise<string> {
  const id = newId();
  await services.db.transaction(async (tx) => {
    await tx.insert(promptBatches).values({
      id,
      orgId: access.orgId,
      promptId: revision.promptId,
      promptRevid: revision.promptRevid,
      kind: batch.kind,
      selection: batch.selection,
      createdBy: await actorName(tx, access),
    });
    await tx.insert(promptBatchItems).values(batch.items.map((item) => ({ batchId: id, ...item })));
  });
  await services.scheduler.scheduleBatchItems(
    id,
    batch.items.map((item) => item.documentId),
  );
  return id;
}

/** A batch as listed: its record and the version of its prompt revision. */
export type ListedBatch = BatchRecord & { promptVersion: number };

/**
 * The batches matching `where`, newest first, with their counts: one query for the batches and
 * one for the counts of all of them (lists are polled).
 */
export async function batchesWhere(db: Db, where: SQL | undefined, limit: number): Promise<ListedBatch[]> {
  const rows = await db
    .select({
      id: promptBatches.id,
      promptId: promptBatches.promptId,
      promptRevid: promptBatches.promptRevid,
      promptVersion: promptRevisions.version,
      selection: promptBatches.selection,
      kind: promptBatches.kind,
      status: promptBatches.status,
      createdBy: promptBatches.createdBy,
      createdAt: promptBatches.createdAt,
      finishedAt: promptBatches.finishedAt,
    })
    .from(promptBatches)
    .innerJoin(promptRevisions, eq(promptRevisions.id, promptBatches.promptRevid))
    .where(where)
    .orderBy(desc(promptBatches.createdAt), desc(promptBatches.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const counted = await db
    .select({ batchId: promptBatchItems.batchId, status: promptBatchItems.status, n: count() })
    .from(promptBatchItems)
    .where(
      inArray(
        promptBatchItems.batchId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(promptBatchItems.batchId, promptBatchItems.status);
  const counts = new Map<string, BatchCounts>(rows.map((r) => [r.id, emptyCounts()]));
  for (const { batchId, status, n } of counted) {
    const c = counts.get(batchId);
    if (!c) continue;
    c[status] += Number(n);
    c.total += Number(n);
  }
  return rows.map((r) => ({ ...r, counts: counts.get(r.id) ?? emptyCounts() }));
}

const emptyCounts = (): BatchCounts => ({ pending: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0, total: 0 });

const withoutVersion = ({ promptVersion: _version, ...batch }: ListedBatch): BatchRecord => batch;

export async function getBatch(db: Db, orgId: string, batchId: string): Promise<BatchRecord> {
  const [batch] = await batchesWhere(db, and(eq(promptBatches.id, batchId), eq(promptBatches.orgId, orgId)), 1);
  if (!batch) throw notFound(`Batch ${batchId}`);
  return withoutVersion(batch);
}

/** The batches of a prompt of a kind (runs by default; evaluations are listed as such), newest first. */
export async function listBatches(
  db: Db,
  orgId: string,
  promptId: string,
  limit = 20,
  kind: BatchKind = 'run',
): Promise<BatchRecord[]> {
  const batches = await batchesWhere(
    db,
    and(eq(promptBatches.orgId, orgId), eq(promptBatches.promptId, promptId), eq(promptBatches.kind, kind)),
    limit,
  );
  return batches.map(withoutVersion);
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
  // Items are counted without their documents, as the batch's counts are.
  const counted = db.select({ n: count() }).from(promptBatchItems).where(where);
  const rows = await db
    .select({
      documentId: promptBatchItems.documentId,
      documentName: documents.name,
      status: promptBatchItems.status,
      error: promptBatchItems.error,
      attempts: promptBatchItems.attempts,
      updatedAt: promptBatchItems.updatedAt,
      total: totalColumn(counted),
    })
    .from(promptBatchItems)
    .innerJoin(documents, eq(documents.id, promptBatchItems.documentId))
    .where(where)
    .orderBy(asc(promptBatchItems.status), asc(documents.name), asc(promptBatchItems.documentId))
    .offset(page.skip)
    .limit(page.limit);
  const { rows: items, total } = await pageWithTotal(rows, page.skip, () => counted);
  return { items, total };
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
