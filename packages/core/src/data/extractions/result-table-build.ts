import { createReadStream } from 'node:fs';
import { type FileHandle, mkdtemp, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { TableColumn } from '../../db/schema.ts';
import type { StoredBlob } from '../../storage/blob-store.ts';
import type { TableIngestServices } from '../datasets/dataset-services.ts';
import { deleteBlobs } from '../datasets/table-ingest.ts';
import { LayoutInference } from './result-layout-inference.ts';
import { listRows, parentRow } from './result-rows.ts';
import { type LatestResult, latestResults, type ResultSource, revisionSchema } from './result-sources.ts';
import {
  type FieldColumn,
  LIST_KEY_COLUMNS,
  layoutOfSchema,
  PARENT_KEY_COLUMNS,
  type ResultTableLayout,
} from './result-table-layout.ts';

/** One table made of a prompt's results, stored as blobs and in the table-file cache. */
export interface BuiltTable {
  /** null for the prompt's own table; the list field's column name for a child table. */
  listName: string | null;
  columns: TableColumn[];
  rowCount: number;
  parquet: StoredBlob;
  csv: StoredBlob;
}

/** Derived files are as large as their data; the upload limit is for what people send. */
const DERIVED_FILE_MAX_BYTES = 64 * 1024 ** 3;

async function layoutOf(services: TableIngestServices, orgId: string, source: ResultSource): Promise<ResultTableLayout> {
  const schema = await revisionSchema(services.db, source.latestRevid);
  if (schema) return layoutOfSchema(schema);
  const inference = new LayoutInference();
  for await (const batch of latestResults(services.db, orgId, source.promptId)) {
    for (const result of batch) inference.observe(result.value);
  }
  return inference.layout();
}

/** A table's rows as JSON lines, written a batch of results at a time. */
interface RowsFile {
  path: string;
  columns: TableColumn[];
  listName: string | null;
  handle: FileHandle;
  rowsOf(result: LatestResult): Array<Record<string, unknown>>;
}

const typed = (columns: FieldColumn[]): TableColumn[] => columns.map((c) => ({ name: c.name, type: c.type }));

async function rowsFiles(dir: string, layout: ResultTableLayout): Promise<RowsFile[]> {
  const parent = {
    path: join(dir, 'rows.jsonl'),
    columns: [...PARENT_KEY_COLUMNS.map((name) => ({ name, type: 'VARCHAR' })), ...typed(layout.columns)],
    listName: null,
    rowsOf: (result: LatestResult) => [parentRow(result, layout)],
  };
  const lists = layout.lists.map((list, i) => ({
    path: join(dir, `list-${i}.jsonl`),
    columns: [
      { name: LIST_KEY_COLUMNS[0], type: 'VARCHAR' },
      { name: LIST_KEY_COLUMNS[1], type: 'BIGINT' },
      ...typed(list.columns),
    ],
    listName: list.name,
    rowsOf: (result: LatestResult) => listRows(result, list),
  }));
  const files: RowsFile[] = [];
  for (const file of [parent, ...lists]) files.push({ ...file, handle: await open(file.path, 'w') });
  return files;
}

/**
 * Makes the prompt's tables from each document's latest result: its own (a row per document) and
 * one per list field (a row per item). The rows go to JSON lines with values already of their
 * column's type, and DuckDB writes them as Parquet with exactly the layout's types, and the CSV;
 * both are stored as blobs and moved into the table-file cache, as an ingest does.
 */
export async function buildResultTables(
  services: TableIngestServices,
  orgId: string,
  source: ResultSource,
): Promise<BuiltTable[]> {
  const { blobs, tableFiles, converter } = services;
  const layout = await layoutOf(services, orgId, source);
  const work = await tableFiles.workDir();
  const stored: StoredBlob[] = [];
  try {
    const files = await rowsFiles(work.path, layout);
    try {
      for await (const batch of latestResults(services.db, orgId, source.promptId)) {
        for (const file of files) {
          const lines = batch.flatMap((result) => file.rowsOf(result).map((row) => `${JSON.stringify(row)}\n`));
          if (lines.length > 0) await file.handle.write(lines.join(''));
        }
      }
    } finally {
      for (const file of files) await file.handle.close();
    }
    const built: BuiltTable[] = [];
    for (const file of files) {
      const converted = await converter.convertJsonLines(file.path, await mkdtemp(join(work.path, 'table-')), file.columns);
      const parquet = await blobs.put(createReadStream(converted.parquetPath), { maxBytes: DERIVED_FILE_MAX_BYTES });
      stored.push(parquet);
      const csv = await blobs.put(createReadStream(converted.csvPath), { maxBytes: DERIVED_FILE_MAX_BYTES });
      stored.push(csv);
      await tableFiles.adopt(converted.parquetPath, parquet.sha256, 'parquet');
      await tableFiles.adopt(converted.csvPath, csv.sha256, 'csv');
      built.push({ listName: file.listName, columns: converted.columns, rowCount: converted.rowCount, parquet, csv });
    }
    return built;
  } catch (error) {
    await deleteBlobs(blobs, stored);
    throw error;
  } finally {
    await work.remove();
  }
}
