import { and, arrayContains, desc, eq, gt, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { documents, extractionResults } from '../db/schema.ts';

/** Which results of a prompt an export holds. */
export interface ExportFilter {
  /** One revision's results; when omitted, each document's latest (its highest revision with a result). */
  promptRevid?: string;
  /** Only documents having all of these tags. */
  tagIds?: string[];
}

/** One document's result, as stored: the person's edits included. */
export interface ExportedResult {
  documentId: string;
  documentName: string;
  promptRevid: string;
  value: unknown;
  isVerified: boolean;
  isEdited: boolean;
  model: string;
  updatedAt: Date;
}

/** Rows read from the database at a time. */
export const EXPORT_PAGE = 500;

/**
 * The prompt's results by document id, a page at a time (keyset on the document id), so that an
 * export never holds more than a page of them.
 */
export async function* exportedResults(
  db: Db,
  orgId: string,
  promptId: string,
  filter: ExportFilter,
  pageSize = EXPORT_PAGE,
): AsyncGenerator<ExportedResult[]> {
  const conditions: SQL[] = [eq(extractionResults.orgId, orgId), eq(extractionResults.promptId, promptId)];
  if (filter.promptRevid) conditions.push(eq(extractionResults.promptRevid, filter.promptRevid));
  if (filter.tagIds && filter.tagIds.length > 0) conditions.push(arrayContains(documents.tagIds, filter.tagIds));
  let after = '';
  for (;;) {
    const page = await db
      .selectDistinctOn([extractionResults.documentId], {
        documentId: extractionResults.documentId,
        documentName: documents.name,
        promptRevid: extractionResults.promptRevid,
        value: extractionResults.updatedLlmResult,
        isVerified: extractionResults.isVerified,
        isEdited: extractionResults.isEdited,
        model: extractionResults.model,
        updatedAt: extractionResults.updatedAt,
      })
      .from(extractionResults)
      .innerJoin(documents, eq(documents.id, extractionResults.documentId))
      .where(and(...conditions, gt(extractionResults.documentId, after)))
      .orderBy(extractionResults.documentId, desc(extractionResults.promptVersion))
      .limit(pageSize);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < pageSize) return;
    after = last.documentId;
  }
}
