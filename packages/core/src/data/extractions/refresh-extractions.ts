import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { datasets, datasetTables } from '../../db/schema.ts';
import { storableText } from '../../db/storable-text.ts';
import { newId } from '../../ids.ts';
import { failureMessage } from '../../scrub-errors.ts';
import type { TableIngestServices } from '../datasets/dataset-services.ts';
import { deleteBlobs } from '../datasets/table-ingest.ts';
import { tableNameOf, uniqueTableName } from '../datasets/table-names.ts';
import { ensureExtractionsDataset } from './extractions-dataset.ts';
import { promptIdOf, type ResultSource, resultSources } from './result-sources.ts';
import { type BuiltTable, buildResultTables } from './result-table-build.ts';

/** A prompt's tables as made for one version of its results, or why they could not be. */
interface Build {
  source: ResultSource;
  outcome: { tables: BuiltTable[] } | { error: string };
}

async function build(services: TableIngestServices, orgId: string, source: ResultSource): Promise<Build> {
  try {
    return { source, outcome: { tables: await buildResultTables(services, orgId, source) } };
  } catch (error) {
    const reason = storableText(failureMessage(error)).text.slice(0, 1000);
    const message = `The table of the prompt "${source.promptName}" could not be made from its results (${reason}); it is made again once they change (run the prompt again), or report this if it persists.`;
    return { source, outcome: { error: message } };
  }
}

type TableRow = typeof datasetTables.$inferInsert;

/** The rows of a build, named after the prompt (its lists `<table>__<field>`), each name free in the dataset. */
function rowsOf(datasetId: string, made: Build, taken: Set<string>): TableRow[] {
  const name = (wanted: string) => {
    const free = uniqueTableName(tableNameOf(wanted), taken);
    taken.add(free);
    return free;
  };
  const parentName = name(made.source.promptName);
  const common = { datasetId, sourceVersion: made.source.sourceVersion, documentId: null, sheetName: null };
  if ('error' in made.outcome) {
    return [{ ...common, id: newId(), tableName: parentName, status: 'failed', error: made.outcome.error }];
  }
  return made.outcome.tables.map((table) => ({
    ...common,
    id: newId(),
    tableName: table.listName === null ? parentName : name(`${parentName}__${table.listName}`),
    status: 'ready',
    error: null,
    columns: table.columns,
    rowCount: table.rowCount,
    parquetBlobId: table.parquet.blobId,
    parquetSha256: table.parquet.sha256,
    csvBlobId: table.csv.blobId,
    csvSha256: table.csv.sha256,
  }));
}

const blobsOf = (made: Build) =>
  'tables' in made.outcome ? made.outcome.tables.flatMap((t) => [{ blobId: t.parquet.blobId }, { blobId: t.csv.blobId }]) : [];

/**
 * Puts the builds in place of the tables they replace, under a lock on the dataset. What to keep is
 * decided again from the results as they are now: a build another request already put in place,
 * or one whose results changed meanwhile, is dropped; a prompt with no results any more loses its
 * tables. Answers the blobs nothing refers to any more.
 */
async function swapIn(db: Db, orgId: string, datasetId: string, builds: Build[]): Promise<Array<{ blobId: string }>> {
  return db.transaction(async (tx) => {
    await tx.select({ id: datasets.id }).from(datasets).where(eq(datasets.id, datasetId)).for('update');
    const current = new Map((await resultSources(tx, orgId)).map((s) => [s.promptId, s.sourceVersion]));
    const rows = await tx.select().from(datasetTables).where(eq(datasetTables.datasetId, datasetId));
    const present = new Set(rows.map((r) => r.sourceVersion));
    const placed = builds.filter(
      (b) => current.get(b.source.promptId) === b.source.sourceVersion && !present.has(b.source.sourceVersion),
    );
    const replaced = new Set(placed.map((b) => b.source.promptId));
    const dropped = rows.filter((r) => {
      const promptId = promptIdOf(r.sourceVersion ?? '');
      return !current.has(promptId) || (replaced.has(promptId) && r.sourceVersion !== current.get(promptId));
    });
    const unused = builds.filter((b) => !placed.includes(b)).flatMap(blobsOf);
    if (placed.length === 0 && dropped.length === 0) return unused;
    if (dropped.length > 0)
      await tx.delete(datasetTables).where(
        inArray(
          datasetTables.id,
          dropped.map((r) => r.id),
        ),
      );
    const taken = new Set(rows.filter((r) => !dropped.includes(r)).map((r) => r.tableName));
    for (const made of placed) await tx.insert(datasetTables).values(rowsOf(datasetId, made, taken));
    await tx.update(datasets).set({ updatedAt: new Date() }).where(eq(datasets.id, datasetId));
    const freed = dropped.flatMap((r) => [r.parquetBlobId, r.csvBlobId]).filter((id): id is string => id !== null);
    return [...unused, ...freed.map((blobId) => ({ blobId }))];
  });
}

async function refreshOnce(services: TableIngestServices, orgId: string, datasetId: string): Promise<void> {
  const { db } = services;
  const sources = await resultSources(db, orgId);
  const rows = await db
    .select({ sourceVersion: datasetTables.sourceVersion })
    .from(datasetTables)
    .where(eq(datasetTables.datasetId, datasetId));
  const present = new Set(rows.map((r) => r.sourceVersion));
  const stale = sources.filter((s) => !present.has(s.sourceVersion));
  const wanted = new Set(sources.map((s) => s.sourceVersion));
  if (stale.length === 0 && rows.every((r) => wanted.has(r.sourceVersion ?? ''))) return;
  const builds: Build[] = [];
  for (const source of stale) builds.push(await build(services, orgId, source));
  await deleteBlobs(services.blobs, await swapIn(db, orgId, datasetId, builds));
}

/** Refreshes of one organization run one after the other; a database handle has its own queue. */
const queues = new WeakMap<Db, Map<string, Promise<void>>>();

/**
 * Brings the organization's built-in extractions dataset up to date with its extraction results
 * (made on first use): the tables of a prompt whose results changed since they were made are made
 * again, a prompt with no results left loses its tables. Cheap when nothing changed: one query over
 * the results' versions. A prompt whose tables cannot be made gets a failed table saying why.
 * Answers the dataset's stored id.
 */
export async function refreshExtractionsDataset(services: TableIngestServices, orgId: string): Promise<string> {
  const datasetId = await ensureExtractionsDataset(services.db, orgId);
  let byOrg = queues.get(services.db);
  if (!byOrg) {
    byOrg = new Map();
    queues.set(services.db, byOrg);
  }
  // Waiting for a refresh already under way is not enough: it may have read the results before a change.
  const previous = byOrg.get(orgId) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => refreshOnce(services, orgId, datasetId));
  byOrg.set(orgId, next);
  try {
    await next;
  } finally {
    if (byOrg.get(orgId) === next) byOrg.delete(orgId);
  }
  return datasetId;
}
