import { join } from 'node:path';
import {
  type BlobStore,
  CsvToParquet,
  type Database,
  type DataExecutors,
  type DataRunServices,
  type Db,
  PythonSandbox,
  SqlRunnerPool,
  TableFileCache,
  type TableIngestScheduler,
  type TableIngestServices,
  tableCacheDirOf,
} from '@docagent/core';
import type { Config } from './config.ts';

/** Table ingest with its own resources: the table-file cache and the in-process DuckDB that converts files. */
export interface TableIngest extends TableIngestServices {
  close(): Promise<void>;
}

/** Executors and what ends them: the SQL runners' child processes. */
export interface ClosableExecutors extends DataExecutors {
  close(): Promise<void>;
}

/**
 * Ingest on the cache directory `dir` (tableCacheDirOf: the data directory's, else the system's
 * temporary one). DuckDB starts with the first ingest, so a process that never makes a table never
 * loads it.
 */
export function createTableIngest(db: Db, blobs: BlobStore, dir: string): TableIngest {
  const converter = new CsvToParquet({ tempDir: join(dir, 'duckdb-spill') });
  return { db, blobs, tableFiles: new TableFileCache(dir, blobs), converter, close: () => converter.close() };
}

/** The ingest of a server or worker process on its database. */
export const tableIngestOf = (database: Database, blobs: BlobStore): TableIngest =>
  createTableIngest(database.db, blobs, tableCacheDirOf(database));

/**
 * The executors of this build: DuckDB in a child process per organization (packages/core/src/data/sql/)
 * and Python in bubblewrap (packages/core/src/data/python/), which answers FEATURE_DISABLED where
 * bwrap or pandas is missing. Tests hand buildApp fakes instead.
 */
export function createDataExecutors(): ClosableExecutors {
  const pool = new SqlRunnerPool();
  return {
    sqlFor: (orgId) => pool.forOrganization(orgId),
    python: new PythonSandbox(),
    close: () => pool.closeAll(),
  };
}

/** Everything the dataset and run routes call: ingest, the executors, and the limits from the configuration. */
export function createDataServices(
  ingest: TableIngestServices,
  executors: DataExecutors,
  scheduler: TableIngestScheduler,
  config: Config,
): DataRunServices {
  return {
    db: ingest.db,
    blobs: ingest.blobs,
    tableFiles: ingest.tableFiles,
    converter: ingest.converter,
    scheduler,
    syncIngestMaxBytes: config.data.syncIngestMaxBytes,
    sqlFor: (orgId) => executors.sqlFor(orgId),
    python: executors.python,
    limits: config.data.runLimits,
  };
}
