import { conflict, DomainError } from '../../errors.ts';
import { ExecutionFailure, type SqlExecutor } from '../executors.ts';
import { quoteIdentifier } from '../sql/sql-identifiers.ts';
import type { DatasetServices } from './dataset-services.ts';
import { tableFilesOf } from './dataset-table-files.ts';
import { getDataset } from './datasets.ts';

/** The most rows one preview page holds: a screenful many times over, small enough to answer at once. */
export const PREVIEW_MAX_ROWS = 500;

/**
 * A page of wide rows (long texts) may be large, but it is for a person's grid and not a model's
 * context, so it is capped well above a run's 256 KB: a page cut short would leave holes in the grid.
 */
const PREVIEW_MAX_BYTES = 16 * 1024 * 1024;

export interface TablePreview {
  tableName: string;
  columns: Array<{ name: string; type: string }>;
  /** Row-major, in the file's order. */
  rows: unknown[][];
  offset: number;
  /** The table's rows, as counted when it was read in. */
  totalCount: number;
}

/**
 * A page of one table's rows, read through the SQL executor like any query but not recorded as a
 * DataRun: a grid scrolling through a million rows asks for many pages. Another organization's
 * dataset and a table the dataset does not have are not found; a table that is not ready is a conflict.
 */
export async function getTablePreview(
  services: DatasetServices & { sqlFor(orgId: string): SqlExecutor },
  orgId: string,
  datasetId: string,
  page: { tableName: string; offset: number; limit: number },
): Promise<TablePreview> {
  // As stored, not brought up to date first (getCurrentDataset): the grid pages through the table
  // its dataset page just read, and rebuilding the extraction tables between two pages would move rows under the scroll.
  const dataset = await getDataset(services.db, orgId, datasetId);
  const table = dataset.tables.find((candidate) => candidate.tableName === page.tableName);
  if (!table) {
    const names = dataset.tables.map((t) => t.tableName).join(', ') || 'none yet';
    throw new DomainError(
      'not_found',
      `The dataset "${dataset.name}" has no table "${page.tableName}"; its tables are: ${names}.`,
    );
  }
  if (table.status === 'pending') {
    throw conflict(`The table "${table.tableName}" is still being read in; ask again once its status is ready.`);
  }
  if (table.status === 'failed') {
    throw conflict(
      `The table "${table.tableName}" could not be read in (${table.error ?? 'no reason given'}); upload the file again.`,
    );
  }
  const limit = Math.min(page.limit, PREVIEW_MAX_ROWS);
  try {
    const files = await tableFilesOf(services.tableFiles, [table]);
    const result = await services.sqlFor(orgId).run(
      `SELECT * FROM ${quoteIdentifier(table.tableName)} LIMIT $1 OFFSET $2`,
      files,
      {
        maxRows: limit,
        maxOutputBytes: PREVIEW_MAX_BYTES,
      },
      [limit, page.offset],
    );
    return {
      tableName: table.tableName,
      columns: result.columns,
      rows: result.rows,
      offset: page.offset,
      totalCount: table.rowCount,
    };
  } catch (error) {
    if (!(error instanceof ExecutionFailure)) throw error;
    throw new DomainError(
      'unavailable',
      `The rows of the table "${table.tableName}" could not be read (${error.code}: ${error.message}); try again in a moment.`,
    );
  }
}
