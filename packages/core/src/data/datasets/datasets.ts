import { and, asc, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { pageOfTable } from '../../db/page-with-total.ts';
import { datasets, datasetTables, organizations } from '../../db/schema.ts';
import { conflict, invalidInput, notFound } from '../../errors.ts';
import { actorName, type OrgAccess } from '../../identity/access.ts';
import { newId } from '../../ids.ts';
import { escapeLike } from '../../sql-text.ts';
import {
  datasetRowId,
  ensureExtractionsDataset,
  extractionsDatasetRowId,
  isBuiltInDataset,
  publicDatasetId,
  refuseBuiltInChange,
} from '../extractions/extractions-dataset.ts';
import { refreshExtractionsDataset } from '../extractions/refresh-extractions.ts';
import type { DatasetServices, TableIngestServices } from './dataset-services.ts';
import { addDocumentTables, checkTableSources } from './dataset-tables.ts';
import { deleteBlobs } from './table-ingest.ts';

export { TABLE_STATUSES, type TableColumn, type TableStatus } from '../../db/schema.ts';

export type DatasetRecord = typeof datasets.$inferSelect;
export type DatasetTableRecord = typeof datasetTables.$inferSelect;
export interface DatasetWithTables extends DatasetRecord {
  tables: DatasetTableRecord[];
}

export const DATASET_LIMITS = { nameLength: 200, descriptionLength: 4000, documentsPerRequest: 50 };

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > DATASET_LIMITS.nameLength) {
    throw invalidInput(
      `A dataset name has 1 to ${DATASET_LIMITS.nameLength} characters; "${trimmed.slice(0, 40)}" has ${trimmed.length}.`,
    );
  }
  return trimmed;
}

function checkDescription(description: string): string {
  if (description.length > DATASET_LIMITS.descriptionLength) {
    throw invalidInput(
      `A dataset description has at most ${DATASET_LIMITS.descriptionLength} characters; this one has ${description.length}.`,
    );
  }
  return description;
}

/** Serializes dataset writes of one organization, so that two requests cannot both pass the name check. */
async function lockOrgDatasets(tx: Db, orgId: string): Promise<void> {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('no key update');
}

async function assertNameFree(tx: Db, orgId: string, name: string, exceptId?: string): Promise<void> {
  const conditions = [eq(datasets.orgId, orgId), sql`lower(${datasets.name}) = lower(${name})`];
  if (exceptId) conditions.push(ne(datasets.id, exceptId));
  const [taken] = await tx
    .select({ id: datasets.id, name: datasets.name })
    .from(datasets)
    .where(and(...conditions));
  if (taken) {
    throw conflict(
      `A dataset named "${taken.name}" already exists (${publicDatasetId(taken.id)}); choose another name, or add the tables to that dataset.`,
    );
  }
}

/** A dataset of the organization, `extractions` naming its built-in one; another organization's is not found. */
export async function getDatasetRecord(db: Db, orgId: string, datasetId: string): Promise<DatasetRecord> {
  const id = datasetRowId(orgId, datasetId);
  if (id === extractionsDatasetRowId(orgId)) await ensureExtractionsDataset(db, orgId);
  const [row] = await db
    .select()
    .from(datasets)
    .where(and(eq(datasets.id, id), eq(datasets.orgId, orgId)));
  if (!row) throw notFound(`Dataset ${datasetId}`);
  return row;
}

async function tablesOf(db: Db, datasetIds: string[]): Promise<Map<string, DatasetTableRecord[]>> {
  const byDataset = new Map<string, DatasetTableRecord[]>(datasetIds.map((id) => [id, []]));
  if (datasetIds.length === 0) return byDataset;
  const rows = await db
    .select()
    .from(datasetTables)
    .where(inArray(datasetTables.datasetId, datasetIds))
    .orderBy(asc(datasetTables.tableName));
  for (const row of rows) byDataset.get(row.datasetId)?.push(row);
  return byDataset;
}

/** A dataset of the organization with its tables by name; another organization's is not found. */
export async function getDataset(db: Db, orgId: string, datasetId: string): Promise<DatasetWithTables> {
  const dataset = await getDatasetRecord(db, orgId, datasetId);
  return { ...dataset, tables: (await tablesOf(db, [dataset.id])).get(dataset.id) ?? [] };
}

/**
 * The dataset with its tables as a query sees them: the built-in extractions dataset is brought up
 * to date with the extraction results first. What reads rows (schema, runs) asks this, not getDataset.
 */
export async function getCurrentDataset(
  services: TableIngestServices,
  orgId: string,
  datasetId: string,
): Promise<DatasetWithTables> {
  const dataset = await getDatasetRecord(services.db, orgId, datasetId);
  if (isBuiltInDataset(dataset)) await refreshExtractionsDataset(services, orgId);
  return getDataset(services.db, orgId, dataset.id);
}

export interface DatasetPageQuery {
  skip: number;
  limit: number;
  nameSearch?: string;
}

/**
 * A page of the organization's datasets with their tables: the built-in extractions one first (its
 * tables as last brought up to date), then newest first. listCurrentDatasets brings it up to date.
 */
export async function listDatasets(
  db: Db,
  orgId: string,
  query: DatasetPageQuery,
): Promise<{ datasets: DatasetWithTables[]; total: number }> {
  await ensureExtractionsDataset(db, orgId);
  const conditions = [eq(datasets.orgId, orgId)];
  if (query.nameSearch) conditions.push(ilike(datasets.name, `%${escapeLike(query.nameSearch)}%`));
  const where = and(...conditions);
  // The organization's extractions dataset first, then the newest.
  const order = [desc(sql`${datasets.id} = ${extractionsDatasetRowId(orgId)}`), desc(datasets.createdAt), desc(datasets.id)];
  const { rows, total } = await pageOfTable(db, datasets, where, order, query);
  const tables = await tablesOf(
    db,
    rows.map((r) => r.id),
  );
  return { datasets: rows.map((r) => ({ ...r, tables: tables.get(r.id) ?? [] })), total };
}

/** listDatasets with the built-in extractions dataset brought up to date with the extraction results first. */
export async function listCurrentDatasets(
  services: TableIngestServices,
  orgId: string,
  query: DatasetPageQuery,
): Promise<{ datasets: DatasetWithTables[]; total: number }> {
  await refreshExtractionsDataset(services, orgId);
  return listDatasets(services.db, orgId, query);
}

/**
 * Creates a dataset, with a table for each document given (a workbook: one per sheet). The
 * documents are checked before anything is made: every one must be a CSV, TSV or XLSX document of
 * the organization.
 */
export async function createDataset(
  services: DatasetServices,
  access: OrgAccess,
  input: { name: string; description?: string; documentIds?: string[] },
): Promise<DatasetWithTables> {
  const { db } = services;
  const name = checkName(input.name);
  const description = checkDescription(input.description ?? '');
  const documentIds = [...new Set(input.documentIds ?? [])];
  if (documentIds.length > DATASET_LIMITS.documentsPerRequest) {
    throw invalidInput(
      `A request adds at most ${DATASET_LIMITS.documentsPerRequest} documents; add the others in more requests.`,
    );
  }
  const sources = await checkTableSources(db, access.orgId, documentIds);
  const createdBy = await actorName(db, access);
  const dataset = await db.transaction(async (tx) => {
    await lockOrgDatasets(tx, access.orgId);
    await assertNameFree(tx, access.orgId, name);
    const [row] = await tx
      .insert(datasets)
      .values({ id: newId(), orgId: access.orgId, name, description, createdBy })
      .returning();
    if (!row) throw new Error('inserting a dataset returned no row');
    return row;
  });
  for (const document of sources) await addDocumentTables(services, dataset, document, undefined);
  return getDataset(db, access.orgId, dataset.id);
}

/** Renames a dataset or changes its description; a request that changes nothing leaves updatedAt alone. */
export async function updateDataset(
  db: Db,
  orgId: string,
  datasetId: string,
  changes: { name?: string; description?: string },
): Promise<DatasetWithTables> {
  const name = changes.name === undefined ? undefined : checkName(changes.name);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  await db.transaction(async (tx) => {
    await lockOrgDatasets(tx, orgId);
    const current = await getDatasetRecord(tx, orgId, datasetId);
    if (isBuiltInDataset(current)) refuseBuiltInChange('change');
    const set: Partial<typeof datasets.$inferInsert> = {};
    if (name !== undefined && name !== current.name) set.name = name;
    if (description !== undefined && description !== current.description) set.description = description;
    if (Object.keys(set).length === 0) return;
    if (set.name !== undefined) await assertNameFree(tx, orgId, set.name, datasetId);
    await tx
      .update(datasets)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(datasets.id, datasetId), eq(datasets.orgId, orgId)));
  });
  return getDataset(db, orgId, datasetId);
}

/** Deletes a dataset, its tables with their stored files, and its runs. The source documents stay. */
export async function deleteDataset(services: DatasetServices, orgId: string, datasetId: string): Promise<void> {
  const { db } = services;
  const tables = await db.transaction(async (tx) => {
    if (isBuiltInDataset(await getDatasetRecord(tx, orgId, datasetId))) refuseBuiltInChange('delete');
    const rows = await tx.select().from(datasetTables).where(eq(datasetTables.datasetId, datasetId));
    await tx.delete(datasets).where(and(eq(datasets.id, datasetId), eq(datasets.orgId, orgId)));
    return rows;
  });
  const blobIds = tables.flatMap((t) => [t.parquetBlobId, t.csvBlobId]).filter((id): id is string => id !== null);
  await deleteBlobs(
    services.blobs,
    blobIds.map((blobId) => ({ blobId })),
  );
}

/**
 * Adds a CSV, TSV or XLSX document of the organization to the dataset: its table, or one per sheet
 * of a workbook. `tableName` is used as given (a workbook's tables are `<tableName>_<sheet>`) and a
 * table of that name already in the dataset is a conflict; without it the name comes from the file
 * stem, and a name already taken gets `_2`, `_3`, ...
 */
export async function addDatasetTable(
  services: DatasetServices,
  orgId: string,
  datasetId: string,
  input: { documentId: string; tableName?: string },
): Promise<DatasetTableRecord[]> {
  const dataset = await getDatasetRecord(services.db, orgId, datasetId);
  if (isBuiltInDataset(dataset)) refuseBuiltInChange('add tables to');
  const [document] = await checkTableSources(services.db, orgId, [input.documentId]);
  if (!document) throw notFound(`Document ${input.documentId}`);
  return addDocumentTables(services, dataset, document, input.tableName);
}
