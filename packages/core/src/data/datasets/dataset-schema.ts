import type { TableColumn, TableStatus } from '../../db/schema.ts';
import { ExecutionFailure, type SqlExecutor } from '../executors.ts';
import type { DatasetServices } from './dataset-services.ts';
import { tableFilesOf } from './dataset-table-files.ts';
import { getCurrentDataset } from './datasets.ts';

export const SAMPLE_ROWS = 3;

export interface TableSchema {
  tableName: string;
  documentId: string | null;
  sheetName: string | null;
  status: TableStatus;
  error: string | null;
  rowCount: number;
  skippedRows: number;
  columns: TableColumn[];
  /** The first rows, keyed by column name; empty for a table that is not ready. */
  sampleRows: Array<Record<string, unknown>>;
  /** Why there are no sample rows although the table is ready (the SQL engine refused or is not installed). */
  sampleError: string | null;
}

/**
 * What a person or a model needs to write a query over the dataset: each table's name as SQL
 * writes it, its columns with their types, its row count and its first rows (read through the SQL
 * executor, like any query).
 */
export async function getDatasetSchema(
  services: DatasetServices & { sqlFor(orgId: string): SqlExecutor },
  orgId: string,
  datasetId: string,
): Promise<{ datasetId: string; tables: TableSchema[] }> {
  const dataset = await getCurrentDataset(services, orgId, datasetId);
  const files = await tableFilesOf(services.tableFiles, dataset.tables);
  const tables: TableSchema[] = [];
  for (const table of dataset.tables) {
    let sampleRows: TableSchema['sampleRows'] = [];
    let sampleError: string | null = null;
    if (table.status === 'ready') {
      try {
        const result = await services
          .sqlFor(orgId)
          .run(`SELECT * FROM "${table.tableName}" LIMIT ${SAMPLE_ROWS}`, files, { maxRows: SAMPLE_ROWS });
        sampleRows = result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, row[i] ?? null])));
      } catch (error) {
        if (!(error instanceof ExecutionFailure)) throw error;
        sampleError = `${error.code}: ${error.message}`;
      }
    }
    tables.push({
      tableName: table.tableName,
      documentId: table.documentId,
      sheetName: table.sheetName,
      status: table.status,
      error: table.error,
      rowCount: table.rowCount,
      skippedRows: table.skippedRows,
      columns: table.columns,
      sampleRows,
      sampleError,
    });
  }
  return { datasetId: dataset.id, tables };
}
