import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type AutoCreateStatus, documents, promptRevisions, prompts } from '../db/schema.ts';

import { type DocumentRecord, getDocument } from '../documents/documents.ts';
import { conflict, notFound } from '../errors.ts';
import { autoCreateActor, deleteAutoCreated } from './auto-create-cleanup.ts';

export { AUTO_CREATE_STATUSES, type AutoCreateStatus } from '../db/schema.ts';

/** What the headless run leaves for review and replay: its turn, model, messages and final working state. */
export interface AutoCreateLog {
  turnId: string | null;
  model: string | null;
  messages: unknown[];
  workingState: Record<string, unknown>;
}

const MAX_ERROR = 4000;
const RETRY_WITH_READABLE_COPY =
  'Upload a readable copy of the document (a PDF that opens, or a clearer scan) with auto-create on to try again.';

/** Whether a document's text job should hand it to auto-create (asked for and not yet run). */
export async function wantsAutoCreate(db: Db, documentId: string): Promise<boolean> {
  const [row] = await db.select({ status: documents.autoCreateStatus }).from(documents).where(eq(documents.id, documentId));
  return row?.status === 'pending';
}

/**
 * Starts an attempt: takes a pending document (or one whose earlier attempt died while running)
 * and deletes whatever an earlier attempt created, so that a retried job starts clean and
 * never leaves two copies. Null when there is nothing to run (already proposed, reviewed,
 * failed, deleted, or auto-create was never asked for).
 */
export async function beginAutoCreateAttempt(db: Db, documentId: string): Promise<{ orgId: string; attempt: number } | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(documents)
      .set({
        autoCreateStatus: 'running',
        autoCreateAttempts: sql`${documents.autoCreateAttempts} + 1`,
        autoCreateStartedAt: new Date(),
        autoCreateDoneAt: null,
        autoCreateError: null,
        autoCreateSchemaRevid: null,
        autoCreatePromptRevid: null,
        autoCreateLog: null,
      })
      .where(and(eq(documents.id, documentId), inArray(documents.autoCreateStatus, ['pending', 'running'])))
      .returning({ orgId: documents.orgId, attempt: documents.autoCreateAttempts });
    if (!claimed) return null;
    await deleteAutoCreated(tx, claimed.orgId, documentId);
    return claimed;
  });
}

/**
 * The text job gave up on the document: a run waiting for its text would wait for ever, so it
 * fails now, saying why. Only a pending run: one already running or reviewed is left as it is.
 */
export async function abandonAutoCreateWithoutText(db: Db, documentId: string, textError: string): Promise<void> {
  const error = `Auto-create did not run: the document's text could not be extracted (${textError}). ${RETRY_WITH_READABLE_COPY}`;
  await db
    .update(documents)
    .set({
      autoCreateStatus: 'failed',
      autoCreateError: error.slice(0, MAX_ERROR),
      autoCreateDoneAt: new Date(),
    })
    .where(and(eq(documents.id, documentId), eq(documents.autoCreateStatus, 'pending')));
}

/** Back to pending with the reason (no LLM provider yet): starting it again (startAutoCreate) or a later text run picks it up. */
export async function holdAutoCreate(db: Db, documentId: string, reason: string): Promise<void> {
  await db
    .update(documents)
    .set({ autoCreateStatus: 'pending', autoCreateError: reason.slice(0, MAX_ERROR) })
    .where(and(eq(documents.id, documentId), inArray(documents.autoCreateStatus, ['pending', 'running'])));
}

/**
 * Records the proposal in one transaction: the document becomes `proposed` with the revisions and
 * the log, and the prompt, when the run created it, is marked as awaiting review.
 */
export async function proposeAutoCreate(
  db: Db,
  documentId: string,
  proposal: { schemaRevid: string | null; promptRevid: string; log: AutoCreateLog },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [doc] = await tx
      .update(documents)
      .set({
        autoCreateStatus: 'proposed',
        autoCreateSchemaRevid: proposal.schemaRevid,
        autoCreatePromptRevid: proposal.promptRevid,
        autoCreateError: null,
        autoCreateLog: proposal.log as unknown as Record<string, unknown>,
        autoCreateDoneAt: new Date(),
      })
      .where(and(eq(documents.id, documentId), eq(documents.autoCreateStatus, 'running')))
      .returning({ id: documents.id });
    if (!doc) return false;
    await tx
      .update(prompts)
      .set({ autoCreatePendingDocumentId: documentId })
      .where(
        sql`${prompts.id} = (select prompt_id from ${promptRevisions} where id = ${proposal.promptRevid})
            and exists (select 1 from ${promptRevisions} r where r.prompt_id = ${prompts.id} and r.version = 1 and r.created_by = ${autoCreateActor(documentId)})`,
      );
    return true;
  });
}

/** The run failed: what it created goes, in the same transaction that records the failure. */
export async function failAutoCreate(db: Db, documentId: string, error: string, log: AutoCreateLog | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [doc] = await tx.select({ orgId: documents.orgId }).from(documents).where(eq(documents.id, documentId)).for('update');
    if (!doc) return;
    await deleteAutoCreated(tx, doc.orgId, documentId);
    await tx
      .update(documents)
      .set({
        autoCreateStatus: 'failed',
        autoCreateError: error.slice(0, MAX_ERROR),
        autoCreateSchemaRevid: null,
        autoCreatePromptRevid: null,
        autoCreateLog: log as unknown as Record<string, unknown> | null,
        autoCreateDoneAt: new Date(),
      })
      .where(eq(documents.id, documentId));
  });
}

async function lockProposed(db: Db, orgId: string, documentId: string, action: string): Promise<void> {
  const [doc] = await db
    .select({ status: documents.autoCreateStatus })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)))
    .for('update');
  if (!doc) throw notFound(`Document ${documentId}`);
  if (doc.status !== 'proposed') {
    throw conflict(
      doc.status === null
        ? `Document ${documentId} has no auto-create proposal to ${action}: auto-create never ran on it.`
        : `Document ${documentId} has no auto-create proposal to ${action}: its auto-create is ${doc.status}.`,
    );
  }
}

/** Accept: the proposed prompt becomes a normal prompt (it runs on matching documents from now on). */
export async function acceptAutoCreate(db: Db, orgId: string, documentId: string): Promise<DocumentRecord> {
  await db.transaction(async (tx) => {
    await lockProposed(tx, orgId, documentId, 'accept');
    await tx
      .update(prompts)
      .set({ autoCreatePendingDocumentId: null })
      .where(eq(prompts.autoCreatePendingDocumentId, documentId));
    await tx.update(documents).set({ autoCreateStatus: 'accepted' }).where(eq(documents.id, documentId));
  });
  return getDocument(db, orgId, documentId);
}

/** Reject: the schema, prompt and results the run created are deleted; the log stays for replay. */
export async function rejectAutoCreate(db: Db, orgId: string, documentId: string): Promise<DocumentRecord> {
  await db.transaction(async (tx) => {
    await lockProposed(tx, orgId, documentId, 'reject');
    await deleteAutoCreated(tx, orgId, documentId);
    await tx
      .update(documents)
      .set({ autoCreateStatus: 'rejected', autoCreateSchemaRevid: null, autoCreatePromptRevid: null })
      .where(eq(documents.id, documentId));
  });
  return getDocument(db, orgId, documentId);
}

/** The document's auto-create status and the log of its last run (null before a run ended). */
export async function getAutoCreateLog(
  db: Db,
  orgId: string,
  documentId: string,
): Promise<{ status: AutoCreateStatus | null; error: string | null; log: AutoCreateLog | null; doneAt: Date | null }> {
  const [row] = await db
    .select({
      status: documents.autoCreateStatus,
      error: documents.autoCreateError,
      log: documents.autoCreateLog,
      doneAt: documents.autoCreateDoneAt,
    })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)));
  if (!row) throw notFound(`Document ${documentId}`);
  return { ...row, log: row.log as unknown as AutoCreateLog | null };
}
