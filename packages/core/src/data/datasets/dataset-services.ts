import type { Db } from '../../db/database.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { CsvToParquet } from './csv-to-parquet.ts';
import type { TableFileCache } from './table-file-cache.ts';

/** Hands a table to the ingest job; implemented by the job queue. */
export interface TableIngestScheduler {
  scheduleTableIngest(tableId: string): Promise<void>;
}

/** What an ingest needs, in a request or in a job. */
export interface TableIngestServices {
  db: Db;
  blobs: BlobStore;
  tableFiles: TableFileCache;
  converter: CsvToParquet;
}

export interface DatasetServices extends TableIngestServices {
  scheduler: TableIngestScheduler;
  /**
   * Sources up to this size are ingested during the request that adds them (the answer has the
   * table ready or failed); larger ones by a job, and the table shows `pending` until it ran.
   */
  syncIngestMaxBytes: number;
}

/** 20 MB: a few seconds of DuckDB at most, short enough for a request to wait. */
export const DEFAULT_SYNC_INGEST_MAX_BYTES = 20 * 1024 * 1024;
