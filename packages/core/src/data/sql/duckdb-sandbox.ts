import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { TableFile } from '../executors.ts';
import { quoteIdentifier, quoteLiteral } from './sql-identifiers.ts';

/** How much of the machine one query may use. */
export interface EngineSettings {
  /** DuckDB worker threads per query. */
  threads: number;
  /** DuckDB's memory_limit, e.g. "1GB": past it a query fails with DuckDB's "Out of Memory Error". */
  memoryLimit: string;
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = { threads: 2, memoryLimit: '1GB' };

/** An in-memory DuckDB that can read the dataset's Parquet files and nothing else. */
export interface Sandbox {
  connection: DuckDBConnection;
  close(): void;
}

/**
 * A fresh in-memory database for one query (creating one costs a few milliseconds): each
 * table a view over its Parquet file, then the doors closed. With external access off DuckDB
 * refuses every file, the views' too, so `allowed_paths` lists exactly the tables' files:
 * `read_csv('/etc/passwd')`, `FROM 'other.parquet'`, COPY, ATTACH and INSTALL still fail,
 * whatever the policy let through. Spilling to disk is off (its default is a `.tmp` folder
 * in the working directory): a query that needs more than the memory limit fails instead.
 * Last, the configuration is locked so the query cannot undo any of it.
 */
export async function openSandbox(
  tables: Array<Pick<TableFile, 'name' | 'parquetPath'>>,
  settings: EngineSettings,
): Promise<Sandbox> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    for (const table of tables) {
      await connection.run(
        `CREATE VIEW ${quoteIdentifier(table.name)} AS SELECT * FROM read_parquet(${quoteLiteral(table.parquetPath)})`,
      );
    }
    const allowed = tables.map((table) => quoteLiteral(table.parquetPath)).join(', ');
    for (const statement of [
      `SET threads = ${Math.max(1, Math.floor(settings.threads))}`,
      `SET memory_limit = ${quoteLiteral(settings.memoryLimit)}`,
      "SET temp_directory = ''",
      'SET autoinstall_known_extensions = false',
      'SET autoload_known_extensions = false',
      'SET allow_community_extensions = false',
      `SET allowed_paths = [${allowed}]`,
      'SET enable_external_access = false',
      'SET lock_configuration = true',
    ]) {
      await connection.run(statement);
    }
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}
