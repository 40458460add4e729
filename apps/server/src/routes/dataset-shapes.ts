import {
  type DatasetTableRecord,
  type DatasetWithTables,
  isBuiltInDataset,
  publicDatasetId,
  TABLE_STATUSES,
  type TableSchema,
} from '@docagent/core';
import { z } from 'zod';
import { iso } from './schemas.ts';

/** Datasets and their tables on the wire (seed 004's field names). */

const ColumnSchema = z.object({
  name: z.string(),
  type: z.string().describe("DuckDB's type: BIGINT, DOUBLE, VARCHAR, DATE, ..."),
});

export const TableSchemaBody = z.object({
  table_id: z.string(),
  table_name: z.string().describe('The name SQL and Python use'),
  document_id: z.string().nullable().describe('The source document; null once it is deleted (the table keeps its data)'),
  sheet_name: z.string().nullable().describe('The XLSX sheet; null for CSV and TSV'),
  status: z.enum(TABLE_STATUSES).describe('pending while a job makes it, ready, or failed with error'),
  error: z.string().nullable(),
  row_count: z.number(),
  skipped_rows: z.number().describe('Lines of the file that could not be read as rows and were left out'),
  columns: z.array(ColumnSchema),
  created_at: z.string(),
  updated_at: z.string(),
});

export const DatasetSchema = z.object({
  dataset_id: z.string().describe('extractions for the built-in dataset'),
  name: z.string(),
  built_in: z
    .boolean()
    .describe(
      'The extraction results as tables (a table per prompt, a row per document, a table per list field), kept up to date; it cannot be renamed, deleted or given tables',
    ),
  description: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  tables: z.array(TableSchemaBody),
});

/** What a table says of itself, in the dataset and in its schema alike. */
const tableFields = (t: Omit<TableSchema, 'sampleRows' | 'sampleError'>) => ({
  table_name: t.tableName,
  document_id: t.documentId,
  sheet_name: t.sheetName,
  status: t.status,
  error: t.error,
  row_count: t.rowCount,
  skipped_rows: t.skippedRows,
  columns: t.columns,
});

export const toTable = (t: DatasetTableRecord): z.infer<typeof TableSchemaBody> => ({
  table_id: t.id,
  ...tableFields(t),
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});

export const toDataset = (d: DatasetWithTables): z.infer<typeof DatasetSchema> => ({
  dataset_id: publicDatasetId(d.id),
  name: d.name,
  built_in: isBuiltInDataset(d),
  description: d.description,
  created_by: d.createdBy,
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
  tables: d.tables.map(toTable),
});

export const DatasetSchemaBody = z.object({
  dataset_id: z.string(),
  tables: z.array(
    z.object({
      table_name: z.string(),
      document_id: z.string().nullable(),
      sheet_name: z.string().nullable(),
      status: z.enum(TABLE_STATUSES),
      error: z.string().nullable(),
      row_count: z.number(),
      skipped_rows: z.number(),
      columns: z.array(ColumnSchema),
      sample_rows: z.array(z.record(z.string(), z.unknown())).describe('The first 3 rows, keyed by column name'),
      sample_error: z
        .string()
        .nullable()
        .describe('Why a ready table has no sample rows (the SQL engine refused or is not installed)'),
    }),
  ),
});

export const toDatasetSchema = (s: { datasetId: string; tables: TableSchema[] }): z.infer<typeof DatasetSchemaBody> => ({
  dataset_id: publicDatasetId(s.datasetId),
  tables: s.tables.map((t) => ({
    ...tableFields(t),
    sample_rows: t.sampleRows,
    sample_error: t.sampleError,
  })),
});

export const CreateDatasetBodySchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  document_ids: z
    .array(z.string().min(1).max(64))
    .max(50)
    .optional()
    .describe('CSV, TSV or XLSX documents to make tables of (a workbook: one table per sheet with data)'),
});

export const UpdateDatasetBodySchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
});

export const AddTableBodySchema = z.strictObject({
  document_id: z.string().min(1).max(64),
  table_name: z
    .string()
    .optional()
    .describe(
      'Used as given (a workbook: <table_name>_<sheet>); a table of that name already in the dataset is a 409. Default: from the file name, with _2, _3... when taken',
    ),
});
