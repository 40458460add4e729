import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { datasetTables, documents } from '../../db/schema.ts';
import { storableText } from '../../db/storable-text.ts';
import { newId } from '../../ids.ts';
import { failureMessage } from '../../scrub-errors.ts';
import type { BlobStore, StoredBlob } from '../../storage/blob-store.ts';
import { type ConvertedTable, IngestError } from './csv-to-parquet.ts';
import type { TableIngestServices } from './dataset-services.ts';
import { tableNameOf, uniqueTableName } from './table-names.ts';
import { csvSource, xlsxSources } from './table-sources.ts';

/** Derived files are as large as their data; the upload limit is for what people send, not for this. */
const DERIVED_FILE_MAX_BYTES = 64 * 1024 ** 3;

interface MadeTable {
  sheetName: string | null;
  converted: ConvertedTable;
  parquet: StoredBlob;
  csv: StoredBlob;
}

type TableRow = typeof datasetTables.$inferSelect;

async function markFailed(db: Db, tableId: string, message: string): Promise<void> {
  const error = storableText(message.slice(0, 2000)).text;
  await db
    .update(datasetTables)
    .set({ status: 'failed', error, updatedAt: new Date() })
    .where(and(eq(datasetTables.id, tableId), eq(datasetTables.status, 'pending')));
}

const filesOf = (made: MadeTable) => ({
  status: 'ready' as const,
  error: null,
  sheetName: made.sheetName,
  columns: made.converted.columns,
  rowCount: made.converted.rowCount,
  skippedRows: made.converted.skippedRows,
  parquetBlobId: made.parquet.blobId,
  parquetSha256: made.parquet.sha256,
  csvBlobId: made.csv.blobId,
  csvSha256: made.csv.sha256,
  updatedAt: new Date(),
});

/**
 * The pending table becomes the ready one; a workbook of several sheets becomes one table per sheet,
 * named `<name>_<sheet>`. False when the pending table is gone (its dataset was deleted meanwhile).
 */
async function saveTables(db: Db, pending: TableRow, made: MadeTable[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: datasetTables.id })
      .from(datasetTables)
      .where(and(eq(datasetTables.id, pending.id), eq(datasetTables.status, 'pending')))
      .for('update');
    if (!locked) return false;
    const [only] = made;
    if (made.length === 1 && only) {
      await tx.update(datasetTables).set(filesOf(only)).where(eq(datasetTables.id, pending.id));
      return true;
    }
    const others = await tx
      .select({ name: datasetTables.tableName })
      .from(datasetTables)
      .where(and(eq(datasetTables.datasetId, pending.datasetId), ne(datasetTables.id, pending.id)));
    const taken = new Set(others.map((o) => o.name));
    await tx.delete(datasetTables).where(eq(datasetTables.id, pending.id));
    for (const table of made) {
      const tableName = uniqueTableName(tableNameOf(`${pending.tableName}_${table.sheetName ?? ''}`), taken);
      taken.add(tableName);
      await tx.insert(datasetTables).values({
        id: newId(),
        datasetId: pending.datasetId,
        tableName,
        documentId: pending.documentId,
        ...filesOf(table),
      });
    }
    return true;
  });
}

async function putFile(blobs: BlobStore, path: string): Promise<StoredBlob> {
  return blobs.put(createReadStream(path), { maxBytes: DERIVED_FILE_MAX_BYTES });
}

/**
 * Makes a pending table from its document: the document's bytes go to a temporary file (never all in
 * memory), DuckDB reads it into Parquet and a normalized CSV, both are stored as blobs and moved into
 * the table-file cache, and the table becomes ready (a workbook: one table per sheet with data). A
 * file that cannot be a table ends in `failed` with the reason at once; any other error is thrown
 * for the job to try again, unless this is the last attempt, which records it on the table.
 */
export async function runTableIngest(
  services: TableIngestServices,
  tableId: string,
  attempt: { isLast: boolean },
): Promise<void> {
  const { db, blobs, tableFiles } = services;
  const [found] = await db
    .select({ table: datasetTables, document: { name: documents.name, kind: documents.kind, blobId: documents.blobId } })
    .from(datasetTables)
    .leftJoin(documents, eq(documents.id, datasetTables.documentId))
    .where(and(eq(datasetTables.id, tableId), eq(datasetTables.status, 'pending')));
  // Gone with its dataset, or made by an earlier attempt.
  if (!found) return;
  const { table, document } = found;
  if (!document) {
    await markFailed(
      db,
      tableId,
      'The source document was deleted before its table was made; upload it again and add it to the dataset.',
    );
    return;
  }
  const work = await tableFiles.workDir();
  const stored: StoredBlob[] = [];
  try {
    const sourcePath = join(work.path, document.kind === 'xlsx' ? 'source.xlsx' : 'source.csv');
    await pipeline(Readable.from(blobs.get(document.blobId)), createWriteStream(sourcePath));
    const sources =
      document.kind === 'xlsx'
        ? await xlsxSources(sourcePath, document.name, work.path)
        : await csvSource(sourcePath, document.name);
    const made: MadeTable[] = [];
    for (const source of sources) {
      const converted = await services.converter.convert(source.path, await mkdtemp(join(work.path, 'table-')), source.dialect);
      const parquet = await putFile(blobs, converted.parquetPath);
      stored.push(parquet);
      const csv = await putFile(blobs, converted.csvPath);
      stored.push(csv);
      await tableFiles.adopt(converted.parquetPath, parquet.sha256, 'parquet');
      await tableFiles.adopt(converted.csvPath, csv.sha256, 'csv');
      made.push({ sheetName: source.sheetName, converted, parquet, csv });
    }
    if (!(await saveTables(db, table, made))) await deleteBlobs(blobs, stored);
  } catch (error) {
    await deleteBlobs(blobs, stored);
    const permanent = error instanceof IngestError;
    if (permanent || attempt.isLast) await markFailed(db, tableId, failureMessage(error));
    if (!permanent && !attempt.isLast) throw error;
  } finally {
    await work.remove();
  }
}

export async function deleteBlobs(blobs: BlobStore, stored: Array<{ blobId: string }>): Promise<void> {
  for (const { blobId } of stored) await blobs.delete(blobId);
}
