import { and, arrayContains, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageOfTable } from '../db/page-with-total.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import {
  type AutoCreateStatus,
  agentThreads,
  agentTurns,
  type DocumentProgress,
  type DocumentState,
  documents,
} from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { escapeLike } from '../sql-text.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { checkTagsExist } from '../tags/tags.ts';
import type { DocumentKind } from '../text/types.ts';
import { checkDocumentName } from './sniff.ts';

export interface DocumentRecord {
  id: string;
  orgId: string;
  name: string;
  mimeType: string;
  kind: DocumentKind;
  state: DocumentState;
  stateError: string | null;
  tagIds: string[];
  metadata: Record<string, string>;
  blobId: string;
  sizeBytes: number;
  uploadedBy: string;
  uploadedAt: Date;
  pageCount: number | null;
  textExtractedAt: Date | null;
  textEngine: string | null;
  /** Characters dropped from the text because the database cannot store them. */
  textRemovedCharacters: number;
  /** How far the text or the prompts have got, while they run. */
  progress: DocumentProgress | null;
  autoCreate: boolean;
  autoCreateStatus: AutoCreateStatus | null;
  autoCreateSchemaRevid: string | null;
  autoCreatePromptRevid: string | null;
  autoCreateError: string | null;
  autoCreateStartedAt: Date | null;
  autoCreateDoneAt: Date | null;
}

/** Hands a document to the text pipeline; implemented by the job queue. */
export interface TextExtractionScheduler {
  scheduleTextExtraction(documentId: string): Promise<void>;
}

export interface DocumentServices {
  db: Db;
  blobs: BlobStore;
  scheduler: TextExtractionScheduler;
  /** Where document.uploaded goes. */
  events?: EventBus;
}

export const METADATA_LIMITS = { keys: 50, keyLength: 100, valueLength: 1000 };

export function checkMetadata(metadata: Record<string, string>): Record<string, string> {
  const entries = Object.entries(metadata);
  if (entries.length > METADATA_LIMITS.keys)
    throw invalidInput(`metadata has ${entries.length} keys; at most ${METADATA_LIMITS.keys} are allowed.`);
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > METADATA_LIMITS.keyLength) {
      throw invalidInput(`metadata key "${key.slice(0, 40)}" must have 1 to ${METADATA_LIMITS.keyLength} characters.`);
    }
    if (typeof value !== 'string' || value.length > METADATA_LIMITS.valueLength) {
      throw invalidInput(`metadata.${key} must be a string of at most ${METADATA_LIMITS.valueLength} characters.`);
    }
  }
  return metadata;
}

export function checkTagIds(tagIds: string[]): string[] {
  const unique = [...new Set(tagIds)];
  if (unique.length > 100) throw invalidInput('A document can have at most 100 tags.');
  for (const id of unique) if (!/^[\w-]{1,64}$/.test(id)) throw invalidInput(`"${id.slice(0, 40)}" is not a tag id.`);
  return unique;
}

/** The read behind most document routes and the agent's document context: built once (prepared-query.ts). */
const documentRow = preparedPerDatabase((db) =>
  db
    .select()
    .from(documents)
    .where(and(eq(documents.id, sql.placeholder('documentId')), eq(documents.orgId, sql.placeholder('orgId')))),
);

export async function getDocument(db: Db, orgId: string, documentId: string): Promise<DocumentRecord> {
  const [row] = await documentRow(db).execute({ documentId, orgId });
  if (!row) throw notFound(`Document ${documentId}`);
  return row;
}

export interface DocumentListQuery {
  skip: number;
  limit: number;
  tagIds?: string[];
  nameSearch?: string;
  metadataSearch?: Record<string, string>;
  autoCreateStatus?: AutoCreateStatus;
  /** Only documents with an extracted field whose citation is less sure than this (the review threshold). */
  reviewBelow?: number;
}

/** A page of an organization's documents, newest first, with the total matching count. */
export async function listDocuments(
  db: Db,
  orgId: string,
  query: DocumentListQuery,
): Promise<{ documents: DocumentRecord[]; total: number }> {
  const conditions = [eq(documents.orgId, orgId)];
  if (query.tagIds?.length) conditions.push(arrayContains(documents.tagIds, query.tagIds));
  if (query.nameSearch) conditions.push(ilike(documents.name, `%${escapeLike(query.nameSearch)}%`));
  if (query.metadataSearch && Object.keys(query.metadataSearch).length > 0) {
    conditions.push(sql`${documents.metadata} @> ${JSON.stringify(query.metadataSearch)}::jsonb`);
  }
  if (query.autoCreateStatus) conditions.push(eq(documents.autoCreateStatus, query.autoCreateStatus));
  if (query.reviewBelow !== undefined) {
    conditions.push(
      sql`exists (select 1 from extraction_results r, jsonb_array_elements(r.citations) c where r.document_id = ${documents.id} and (c->>'confidence')::float8 < ${query.reviewBelow})`,
    );
  }
  const where = and(...conditions);
  const page = await pageOfTable(db, documents, where, [desc(documents.uploadedAt), desc(documents.id)], query);
  return { documents: page.rows, total: page.total };
}

export async function updateDocument(
  db: Db,
  orgId: string,
  documentId: string,
  changes: { name?: string; tagIds?: string[]; metadata?: Record<string, string> },
): Promise<DocumentRecord> {
  const set: Partial<typeof documents.$inferInsert> = {};
  if (changes.name !== undefined) set.name = checkDocumentName(changes.name);
  if (changes.tagIds !== undefined) {
    set.tagIds = checkTagIds(changes.tagIds);
    await checkTagsExist(db, orgId, set.tagIds);
  }
  if (changes.metadata !== undefined) set.metadata = checkMetadata(changes.metadata);
  if (Object.keys(set).length === 0) return getDocument(db, orgId, documentId);
  const [row] = await db
    .update(documents)
    .set(set)
    .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)))
    .returning();
  if (!row) throw notFound(`Document ${documentId}`);
  return row;
}

/** Deletes the document, its text and its file. A text job still running for it finds nothing and stops. */
export async function deleteDocument(
  services: Pick<DocumentServices, 'db' | 'blobs'>,
  orgId: string,
  documentId: string,
): Promise<void> {
  const row = await services.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(documents)
      .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)))
      .returning({ blobId: documents.blobId });
    if (!deleted) throw notFound(`Document ${documentId}`);
    // Conversations about the document go with it (turns and threads name their subject, not a row).
    const aboutIt = (t: typeof agentThreads | typeof agentTurns) =>
      and(eq(t.orgId, orgId), eq(t.subjectKind, 'document'), eq(t.subjectId, documentId));
    await tx.delete(agentTurns).where(aboutIt(agentTurns));
    await tx.delete(agentThreads).where(aboutIt(agentThreads));
    return deleted;
  });
  await services.blobs.delete(row.blobId);
}

/**
 * Marks the document for a new text extraction and schedules it. A stage still running on it
 * writes no more progress (document-progress.ts): what it wrote goes now.
 */
export async function rerunTextExtraction(
  services: DocumentServices,
  orgId: string,
  documentId: string,
): Promise<DocumentRecord> {
  const [row] = await services.db
    .update(documents)
    .set({ state: 'uploaded', stateError: null, progress: null })
    .where(and(eq(documents.id, documentId), eq(documents.orgId, orgId)))
    .returning();
  if (!row) throw notFound(`Document ${documentId}`);
  await services.scheduler.scheduleTextExtraction(row.id);
  return row;
}

/** The document and a stream of its original bytes. */
export async function openDocumentFile(
  services: Pick<DocumentServices, 'db' | 'blobs'>,
  orgId: string,
  documentId: string,
): Promise<{ document: DocumentRecord; content: AsyncIterable<Uint8Array> }> {
  const document = await getDocument(services.db, orgId, documentId);
  return { document, content: services.blobs.get(document.blobId) };
}
