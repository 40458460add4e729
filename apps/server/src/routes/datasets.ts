import {
  addDatasetTable,
  createDataset,
  deleteDataset,
  getCurrentDataset,
  getDatasetSchema,
  listCurrentDatasets,
  updateDataset,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import {
  AddTableBodySchema,
  CreateDatasetBodySchema,
  DatasetSchema,
  DatasetSchemaBody,
  TableSchemaBody,
  toDataset,
  toDatasetSchema,
  toTable,
  UpdateDatasetBodySchema,
} from './dataset-shapes.ts';
import { ErrorBodySchema, OrgParamsSchema, PageQuerySchema } from './schemas.ts';

const DatasetParamsSchema = OrgParamsSchema.extend({
  dataset_id: z.string().min(1).max(64).describe('A dataset id, or extractions: the built-in dataset of extraction results'),
});
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['datasets'];

/** Datasets of the data analyst (seed 004): named sets of tables made from CSV, TSV and XLSX documents. */
export function datasetRoutes(app: ZodApp, { data }: RouteDeps): void {
  const { db } = data;

  app.get(
    '/v0/orgs/:organization_id/datasets',
    {
      schema: {
        summary: 'List datasets, the built-in extractions dataset first, then newest first, with their tables',
        tags,
        params: OrgParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: z.object({ datasets: z.array(DatasetSchema), total_count: z.number(), skip: z.number() }), ...errors },
      },
    },
    async (request) => {
      const { skip, limit, name_search } = request.query;
      const page = await listCurrentDatasets(data, orgOf(request).orgId, { skip, limit, nameSearch: name_search });
      return { datasets: page.datasets.map(toDataset), total_count: page.total, skip };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/datasets',
    {
      schema: {
        summary: 'Create a dataset, with a table for each document given',
        description:
          'A document up to DOCAGENT_SYNC_INGEST_MB is made into its table during the request (ready, or failed with the reason); a larger one by a job, and its table is pending until then.',
        tags,
        params: OrgParamsSchema,
        body: CreateDatasetBodySchema,
        response: { 200: DatasetSchema, ...errors },
      },
    },
    async (request) => {
      const { name, description, document_ids } = request.body;
      return toDataset(await createDataset(data, orgOf(request), { name, description, documentIds: document_ids }));
    },
  );

  app.get(
    '/v0/orgs/:organization_id/datasets/:dataset_id',
    {
      schema: {
        summary: 'One dataset with its tables',
        tags,
        params: DatasetParamsSchema,
        response: { 200: DatasetSchema, ...errors },
      },
    },
    async (request) => toDataset(await getCurrentDataset(data, orgOf(request).orgId, request.params.dataset_id)),
  );

  app.put(
    '/v0/orgs/:organization_id/datasets/:dataset_id',
    {
      schema: {
        summary: 'Rename a dataset or change its description',
        tags,
        params: DatasetParamsSchema,
        body: UpdateDatasetBodySchema,
        response: { 200: DatasetSchema, ...errors },
      },
    },
    async (request) => toDataset(await updateDataset(db, orgOf(request).orgId, request.params.dataset_id, request.body)),
  );

  app.delete(
    '/v0/orgs/:organization_id/datasets/:dataset_id',
    {
      schema: {
        summary: 'Delete a dataset, its tables and its runs; the documents stay',
        tags,
        params: DatasetParamsSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteDataset(data, orgOf(request).orgId, request.params.dataset_id);
      return { message: 'Dataset deleted successfully' };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/datasets/:dataset_id/schema',
    {
      schema: {
        summary: 'Each table as SQL names it, with its columns, types, row count and first rows',
        tags,
        params: DatasetParamsSchema,
        response: { 200: DatasetSchemaBody, ...errors },
      },
    },
    async (request) => toDatasetSchema(await getDatasetSchema(data, orgOf(request).orgId, request.params.dataset_id)),
  );

  app.post(
    '/v0/orgs/:organization_id/datasets/:dataset_id/tables',
    {
      schema: {
        summary: 'Add a CSV, TSV or XLSX document as a table (a workbook: one table per sheet with data)',
        tags,
        params: DatasetParamsSchema,
        body: AddTableBodySchema,
        response: { 200: z.object({ dataset_id: z.string(), tables: z.array(TableSchemaBody) }), ...errors },
      },
    },
    async (request) => {
      const { dataset_id } = request.params;
      const { document_id, table_name } = request.body;
      const added = await addDatasetTable(data, orgOf(request).orgId, dataset_id, {
        documentId: document_id,
        tableName: table_name,
      });
      return { dataset_id, tables: added.map(toTable) };
    },
  );
}
