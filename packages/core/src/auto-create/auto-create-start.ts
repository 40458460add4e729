import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type DocumentState, documents } from '../db/schema.ts';
import { type DocumentRecord, getDocument } from '../documents/documents.ts';
import { conflict, notFound } from '../errors.ts';

/** Hands a document waiting for auto-create to a run; implemented by the job queue. */
export interface AutoCreateScheduler {
  scheduleAutoCreate(documentId: string): Promise<void>;
}

export interface AutoCreateServices {
  db: Db;
  scheduler: AutoCreateScheduler;
}

/** States in which the document's text is stored: a run can start at once. */
const TEXT_READY: ReadonlySet<DocumentState> = new Set(['ocr_completed', 'llm_processing', 'llm_completed', 'llm_failed']);

/**
 * Asks for an auto-create run on a document now: one uploaded without it, one whose run failed
 * or was rejected, or one that waited for a model and may have one now. The run starts at once
 * when the text is there, else when the text job stores it. Refused while a run is under way or
 * its proposal waits for review, after a proposal was accepted (a new run would start by deleting
 * what the accepted one made), and for a document without text.
 */
export async function startAutoCreate(services: AutoCreateServices, orgId: string, documentId: string): Promise<DocumentRecord> {
  const textReady = await services.db.transaction(async (tx) => {
    // The text job locks the row to store the text: either it stored it before we look (we
    // schedule), or it finds the document pending once it has (it schedules).
    const [doc] = await tx
      .select({ state: documents.state, status: documents.autoCreateStatus, stateError: documents.stateError })
      .from(documents)
      .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)))
      .for('update');
    if (!doc) throw notFound(`Document ${documentId}`);
    if (doc.status === 'running') {
      throw conflict(`Auto-create is already running on document ${documentId}; its proposal shows here when it is done.`);
    }
    if (doc.status === 'proposed') {
      throw conflict(`Document ${documentId} has an auto-create proposal waiting for review: accept or reject it first.`);
    }
    if (doc.status === 'accepted') {
      throw conflict(
        `Document ${documentId}'s auto-create proposal was accepted and its prompt is in use; ask the agent in the chat to change it.`,
      );
    }
    if (doc.state === 'ocr_failed') {
      throw conflict(
        `Document ${documentId} has no text for auto-create to read: its text extraction failed (${doc.stateError ?? 'no reason recorded'}). Upload a readable copy.`,
      );
    }
    await tx
      .update(documents)
      .set({ autoCreate: true, autoCreateStatus: 'pending', autoCreateError: null, autoCreateDoneAt: null })
      .where(eq(documents.id, documentId));
    return TEXT_READY.has(doc.state);
  });
  if (textReady) await services.scheduler.scheduleAutoCreate(documentId);
  return getDocument(services.db, orgId, documentId);
}
