import { and, eq, inArray } from 'drizzle-orm';
import { abandonAutoCreateWithoutText } from '../auto-create/auto-create-state.ts';
import type { Db } from '../db/database.ts';
import { documentPages, documents } from '../db/schema.ts';
import { storableText } from '../db/storable-text.ts';
import type { EventBus } from '../events/event-bus.ts';
import { failureMessage } from '../scrub-errors.ts';
import { type BlobStore, readBlob } from '../storage/blob-store.ts';
import { itemsFollowFromText } from '../text/plain-text.ts';
import type { DocumentKind, PageProgress, PageText, TextExtraction, TextExtractionLimits } from '../text/types.ts';
import { TextExtractionError } from '../text/types.ts';
import { StageProgress } from './document-progress.ts';

export type ExtractFn = (
  input: { bytes: Uint8Array; kind: DocumentKind },
  options: { limits?: Partial<TextExtractionLimits>; onPage?: PageProgress },
) => Promise<TextExtraction>;

export interface TextJobServices {
  db: Db;
  blobs: BlobStore;
  extract: ExtractFn;
  limits?: Partial<TextExtractionLimits>;
  /** Where document.text_ready and document.error go. */
  events?: EventBus;
}

const PAGE_INSERT_BATCH = 50;

/**
 * One run of the text pipeline for one document. A failure that another attempt cannot
 * fix (a malformed or encrypted PDF, too many pages) ends in `ocr_failed` at once; any
 * other error, storing the text included, is rethrown so that the queue retries it, and on
 * the last attempt it is recorded on the document too. A document deleted meanwhile is simply
 * left alone. True when the text was stored and the document reached ocr_completed.
 */
export async function runTextExtraction(
  services: TextJobServices,
  documentId: string,
  attempt: { isLast: boolean },
): Promise<boolean> {
  const { db } = services;
  const [doc] = await db
    .update(documents)
    .set({ state: 'ocr_processing', stateError: null })
    .where(eq(documents.id, documentId))
    .returning({ kind: documents.kind, blobId: documents.blobId, orgId: documents.orgId });
  if (!doc) return false;
  const publish = (type: 'document.text_ready' | 'document.error', error?: string) =>
    services.events?.publish({ type, orgId: doc.orgId, documentId, at: new Date().toISOString(), ...(error ? { error } : {}) });

  try {
    const bytes = await readBlob(services.blobs, doc.blobId);
    const extraction = await extractShowingProgress(services, documentId, { bytes, kind: doc.kind });
    const saved = await saveExtraction(db, documentId, extraction).catch((error: unknown) => {
      throw new Error(`the extracted text could not be stored (${failureMessage(error)})`, { cause: error });
    });
    if (saved) publish('document.text_ready');
    return saved;
  } catch (error) {
    const permanent = error instanceof TextExtractionError;
    if (permanent || attempt.isLast) {
      const message = failureMessage(error);
      await markFailed(db, documentId, message);
      publish('document.error', message);
    }
    if (!permanent) throw error;
    return false;
  }
}

/** The extraction, with how many pages have their text shown on the document while it runs. */
async function extractShowingProgress(
  services: TextJobServices,
  documentId: string,
  input: { bytes: Uint8Array; kind: DocumentKind },
): Promise<TextExtraction> {
  const progress = new StageProgress(services.db, documentId, 'text');
  try {
    return await services.extract(input, { limits: services.limits, onPage: progress.report });
  } finally {
    await progress.end();
  }
}

async function markFailed(db: Db, documentId: string, message: string): Promise<void> {
  const stateError = storableText(message.slice(0, 2000)).text;
  await db.transaction(async (tx) => {
    await tx.update(documents).set({ state: 'ocr_failed', stateError }).where(eq(documents.id, documentId));
    await abandonAutoCreateWithoutText(tx, documentId, stateError);
  });
}

/**
 * The pages as PostgreSQL can store them: a text layer may hold NULs or broken surrogate pairs,
 * which are dropped (and counted) rather than failing the document. The count is of the pages'
 * text; their positioned items repeat it. A plain page's items (its lines) are not stored: they
 * are made again from its text when read (plainTextItems).
 */
function storablePages(pages: PageText[]): { pages: PageText[]; removed: number } {
  let removed = 0;
  const cleaned = pages.map((page) => {
    const text = storableText(page.text);
    removed += text.removed;
    const stored = itemsFollowFromText(page.engine) ? [] : page.items;
    const items = stored.flatMap((item) => {
      const itemText = storableText(item.text).text;
      return itemText.trim() === '' ? [] : [{ ...item, text: itemText }];
    });
    return { ...page, text: text.text, items };
  });
  return { pages: cleaned, removed };
}

async function saveExtraction(db: Db, documentId: string, extraction: TextExtraction): Promise<boolean> {
  const engines = [...new Set(extraction.pages.map((p) => p.engine))].sort().join('+');
  const { pages, removed } = storablePages(extraction.pages);
  return db.transaction(async (tx) => {
    // Locking the row makes a concurrent delete wait for us, or us find nothing.
    const [locked] = await tx.select({ id: documents.id }).from(documents).where(eq(documents.id, documentId)).for('update');
    if (!locked) return false;
    await tx.delete(documentPages).where(eq(documentPages.documentId, documentId));
    for (let i = 0; i < pages.length; i += PAGE_INSERT_BATCH) {
      const batch = pages.slice(i, i + PAGE_INSERT_BATCH);
      await tx.insert(documentPages).values(
        batch.map((p) => ({
          documentId,
          page: p.page,
          text: p.text,
          width: p.width,
          height: p.height,
          engine: p.engine,
          items: p.items,
        })),
      );
    }
    const updated = await tx
      .update(documents)
      .set({
        state: 'ocr_completed',
        stateError: null,
        pageCount: extraction.pageCount,
        textExtractedAt: new Date(),
        textEngine: engines,
        textRemovedCharacters: removed,
      })
      .where(and(eq(documents.id, documentId), inArray(documents.state, ['ocr_processing', 'uploaded'])))
      .returning({ id: documents.id });
    return updated.length > 0;
  });
}
