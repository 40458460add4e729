import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { documentPages, documents } from '../db/schema.ts';
import { conflict, type DomainError, invalidInput, notFound } from '../errors.ts';
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

/** Why the document's text cannot be read: while it is being read, or when reading it failed. */
function textUnavailable(document: DocumentRecord): DomainError | undefined {
  if (document.state === 'uploaded' || document.state === 'ocr_processing') {
    return conflict(`The text of document ${document.id} is not ready yet (state ${document.state}); try again shortly.`);
  }
  if (document.state === 'ocr_failed') {
    return conflict(
      `Text extraction failed for document ${document.id}: ${document.stateError ?? 'unknown error'}. Re-run it with POST ocr/run/${document.id}.`,
    );
  }
  return undefined;
}

/** The document, once its text is ready; a clear error while it is not, or when extraction failed. */
async function documentWithText(db: Db, orgId: string, documentId: string): Promise<DocumentRecord> {
  const document = await getDocument(db, orgId, documentId);
  const unavailable = textUnavailable(document);
  if (unavailable) throw unavailable;
  return document;
}

/** The pages' text as the agent reads it, a blank line between pages, joined by the database. */
const joinedText = sql`(select string_agg(${documentPages.text}, E'\\n\\n' order by ${documentPages.page}) as text from ${documentPages} where ${documentPages.documentId} = ${documents.id})`;
type TextStart = { excerpt: string | null; length: number | null };

/**
 * The document with the start of its text, built once (prepared-query.ts): the database sends
 * only the text's first characters and its length, so the agent's context of a 300-page document
 * no longer brings its whole text to the server at every run of a turn.
 */
const documentWithExcerpt = preparedPerDatabase((db) =>
  db
    .select({
      document: getTableColumns(documents),
      text: sql<TextStart>`(select json_build_object('excerpt', left(joined.text, ${sql.placeholder('chars')}::int), 'length', length(joined.text)) from ${joinedText} as joined)`,
    })
    .from(documents)
    .where(and(eq(documents.id, sql.placeholder('documentId')), eq(documents.orgId, sql.placeholder('orgId')))),
);

export interface DocumentExcerpt {
  document: DocumentRecord;
  /** The first characters of its text, pages separated by a blank line ('' when it has none). */
  excerpt: string;
  /** The characters of the whole text. */
  length: number;
  /** Why there is no text to read yet, or none at all (then excerpt is '' and length 0). */
  unavailable?: string;
}

/** The document and the first `chars` characters of its text, in one statement. */
export async function getDocumentExcerpt(db: Db, orgId: string, documentId: string, chars: number): Promise<DocumentExcerpt> {
  const [row] = await documentWithExcerpt(db).execute({ documentId, orgId, chars });
  if (!row) throw notFound(`Document ${documentId}`);
  const unavailable = textUnavailable(row.document);
  if (unavailable) return { document: row.document, excerpt: '', length: 0, unavailable: unavailable.message };
  return { document: row.document, excerpt: row.text.excerpt ?? '', length: row.text.length ?? 0 };
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
