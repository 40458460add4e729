import type { TableFile } from '../executors.ts';
import type { DatasetTableRecord } from './datasets.ts';
import type { TableFileCache } from './table-file-cache.ts';

/** The ready tables as files on this disk, for an executor; pending and failed tables are not there to query. */
export async function tableFilesOf(cache: TableFileCache, tables: DatasetTableRecord[]): Promise<TableFile[]> {
  const files: TableFile[] = [];
  for (const table of tables) {
    const { parquetBlobId, parquetSha256, csvBlobId, csvSha256 } = table;
    if (table.status !== 'ready' || !parquetBlobId || !parquetSha256 || !csvBlobId || !csvSha256) continue;
    files.push({
      name: table.tableName,
      parquetPath: await cache.materialize(parquetBlobId, parquetSha256, 'parquet'),
      csvPath: await cache.materialize(csvBlobId, csvSha256, 'csv'),
      columns: table.columns,
    });
  }
  return files;
}
