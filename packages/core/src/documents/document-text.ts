import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { documentPages } from '../db/schema.ts';
import { conflict, invalidInput } from '../errors.ts';
import { itemsFollowFromText, plainTextItems } from '../text/plain-text.ts';
import type { PositionedText, TextEngine } from '../text/types.ts';
import { type DocumentRecord, getDocument } from './documents.ts';

export interface StoredPage {
  page: number;
  text: string;
  width: number;
  height: number;
  engine: TextEngine;
  items: PositionedText[];
}

/** The document, once its text is ready; a clear error while it is not, or when extraction failed. */
async function documentWithText(db: Db, orgId: string, documentId: string): Promise<DocumentRecord> {
  const document = await getDocument(db, orgId, documentId);
  if (document.state === 'uploaded' || document.state === 'ocr_processing') {
    throw conflict(`The text of document ${documentId} is not ready yet (state ${document.state}); try again shortly.`);
  }
  if (document.state === 'ocr_failed') {
    throw conflict(
      `Text extraction failed for document ${documentId}: ${document.stateError ?? 'unknown error'}. Re-run it with POST ocr/run/${documentId}.`,
    );
  }
  return document;
}

function checkPage(document: DocumentRecord, page: number | undefined): void {
  if (page !== undefined && (document.pageCount === null || page < 1 || page > document.pageCount)) {
    throw invalidInput(
      `page_num ${page} is out of range; document ${document.id} has ${document.pageCount ?? 0} page(s), numbered from 1.`,
    );
  }
}

const pagesWhere = (documentId: string, page: number | undefined) =>
  page === undefined
    ? eq(documentPages.documentId, documentId)
    : and(eq(documentPages.documentId, documentId), eq(documentPages.page, page));

/** The document's extracted pages (all, or one 1-based page), in order. */
export async function getDocumentPages(
  db: Db,
  orgId: string,
  documentId: string,
  page?: number,
): Promise<{ document: DocumentRecord; pages: StoredPage[] }> {
  const document = await documentWithText(db, orgId, documentId);
  checkPage(document, page);
  return { document, pages: await storedPages(db, documentId, page) };
}

/** The pages stored for a document (or one of them) with their positioned words, whatever its state: none before its text is read. */
export async function storedPages(db: Db, documentId: string, page?: number): Promise<StoredPage[]> {
  const rows = await db
    .select({
      page: documentPages.page,
      text: documentPages.text,
      width: documentPages.width,
      height: documentPages.height,
      engine: documentPages.engine,
      items: documentPages.items,
    })
    .from(documentPages)
    .where(pagesWhere(documentId, page))
    .orderBy(documentPages.page);
  return rows.map((r) => {
    const engine = r.engine as TextEngine;
    // Pages stored before plain pages stopped storing their lines hold the same items.
    const items = itemsFollowFromText(engine) ? plainTextItems(r.text) : (r.items as PositionedText[]);
    return { ...r, engine, items };
  });
}

/**
 * The pages' text without their positioned words, which are several times larger: what the
 * agent and extraction read, at every step of a turn.
 */
export async function getDocumentPageTexts(
  db: Db,
  orgId: string,
  documentId: string,
  page?: number,
): Promise<{ document: DocumentRecord; pages: Array<{ page: number; text: string }> }> {
  const document = await documentWithText(db, orgId, documentId);
  checkPage(document, page);
  const pages = await db
    .select({ page: documentPages.page, text: documentPages.text })
    .from(documentPages)
    .where(pagesWhere(documentId, page))
    .orderBy(documentPages.page);
  return { document, pages };
}

/** Plain text of the whole document (pages separated by a blank line), or of one page. */
export async function getDocumentText(db: Db, orgId: string, documentId: string, page?: number): Promise<string> {
  const { pages } = await getDocumentPageTexts(db, orgId, documentId, page);
  return pages.map((p) => p.text).join('\n\n');
}

export interface TextMetadata {
  pageCount: number;
  extractedAt: Date | null;
  /** The engines that produced the pages, e.g. "pdf_text+tesseract_cli". */
  engine: string | null;
  /** Characters dropped from the text because the database cannot store them (NUL, unpaired surrogates). */
  removedCharacters: number;
}

export const textMetadataOf = (document: DocumentRecord): TextMetadata => ({
  pageCount: document.pageCount ?? 0,
  extractedAt: document.textExtractedAt,
  engine: document.textEngine,
  removedCharacters: document.textRemovedCharacters,
});

/** When and how the document's text was made. */
export async function getTextMetadata(db: Db, orgId: string, documentId: string): Promise<TextMetadata> {
  return textMetadataOf(await documentWithText(db, orgId, documentId));
}
