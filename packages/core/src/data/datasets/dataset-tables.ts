import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { datasets, datasetTables, documents } from '../../db/schema.ts';
import { conflict, invalidInput, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { DocumentKind } from '../../text/types.ts';
import type { DatasetServices } from './dataset-services.ts';
import { deleteBlobs, runTableIngest } from './table-ingest.ts';
import { checkTableName, tableNameOf, uniqueTableName } from './table-names.ts';

/** A document a table can be made of. */
export interface TableSourceDocument {
  id: string;
  name: string;
  kind: DocumentKind;
  sizeBytes: number;
}

const TABULAR_KINDS: ReadonlySet<DocumentKind> = new Set(['csv', 'xlsx']);

/** The documents, in the order asked for; each must be a CSV, TSV or XLSX document of the organization. */
export async function checkTableSources(db: Db, orgId: string, documentIds: string[]): Promise<TableSourceDocument[]> {
  if (documentIds.length === 0) return [];
  const rows = await db
    .select({ id: documents.id, name: documents.name, kind: documents.kind, sizeBytes: documents.sizeBytes })
    .from(documents)
    .where(and(eq(documents.orgId, orgId), inArray(documents.id, documentIds)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return documentIds.map((id) => {
    const document = byId.get(id);
    if (!document) throw notFound(`Document ${id}`);
    if (!TABULAR_KINDS.has(document.kind)) {
      throw invalidInput(
        `Document "${document.name}" is of kind ${document.kind}; only CSV, TSV and XLSX documents can be tables of a dataset.`,
      );
    }
    return document;
  });
}

/** Reserves the table's name as a pending table, under a lock on the dataset so that two additions cannot take the same name. */
async function reserveTable(
  db: Db,
  datasetId: string,
  document: TableSourceDocument,
  tableName: string | undefined,
): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.select({ id: datasets.id }).from(datasets).where(eq(datasets.id, datasetId)).for('update');
    const existing = await tx
      .select({ tableName: datasetTables.tableName, documentId: datasetTables.documentId })
      .from(datasetTables)
      .where(eq(datasetTables.datasetId, datasetId));
    const already = existing.filter((t) => t.documentId === document.id).map((t) => t.tableName);
    if (already.length > 0) {
      throw conflict(
        `Document "${document.name}" is already in this dataset as ${already.join(', ')}; delete ${already.length === 1 ? 'that table' : 'those tables'} first to add it again.`,
      );
    }
    const taken = new Set(existing.map((t) => t.tableName));
    let name: string;
    if (tableName === undefined) name = uniqueTableName(tableNameOf(document.name), taken);
    else {
      name = checkTableName(tableName);
      if (taken.has(name))
        throw conflict(
          `The dataset already has a table named ${name}; choose another table_name, or leave it out to get a free one.`,
        );
    }
    const id = newId();
    await tx.insert(datasetTables).values({ id, datasetId, tableName: name, documentId: document.id, status: 'pending' });
    return id;
  });
}

/**
 * Adds the document's tables to the dataset and ingests them: during the call for a document up to
 * `syncIngestMaxBytes`, else by a job (the tables answer `pending` until it ran). The answer is the
 * document's tables in the dataset, ready, failed with the reason, or pending.
 */
export async function addDocumentTables(
  services: DatasetServices,
  dataset: { id: string },
  document: TableSourceDocument,
  tableName: string | undefined,
): Promise<Array<typeof datasetTables.$inferSelect>> {
  const tableId = await reserveTable(services.db, dataset.id, document, tableName);
  if (document.sizeBytes <= services.syncIngestMaxBytes) await runTableIngest(services, tableId, { isLast: true });
  else await services.scheduler.scheduleTableIngest(tableId);
  return services.db
    .select()
    .from(datasetTables)
    .where(and(eq(datasetTables.datasetId, dataset.id), eq(datasetTables.documentId, document.id)))
    .orderBy(asc(datasetTables.tableName));
}

/** Takes the document's tables out of the dataset with their stored files; the document stays. */
export async function removeDocumentTables(services: DatasetServices, datasetId: string, documentId: string): Promise<number> {
  const removed = await services.db
    .delete(datasetTables)
    .where(and(eq(datasetTables.datasetId, datasetId), eq(datasetTables.documentId, documentId)))
    .returning({ parquetBlobId: datasetTables.parquetBlobId, csvBlobId: datasetTables.csvBlobId });
  const blobIds = removed.flatMap((t) => [t.parquetBlobId, t.csvBlobId]).filter((id): id is string => id !== null);
  await deleteBlobs(
    services.blobs,
    blobIds.map((blobId) => ({ blobId })),
  );
  return removed.length;
}

/** Whether a document of this kind can be a table. */
export const isTabularKind = (kind: DocumentKind): boolean => TABULAR_KINDS.has(kind);
