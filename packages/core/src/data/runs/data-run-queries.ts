import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { pageOfTable } from '../../db/page-with-total.ts';
import { dataRuns } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { datasetRowId } from '../extractions/extractions-dataset.ts';
import type { DataRunRecord } from './data-runs.ts';

/** A run of the organization; another organization's is not found. */
export async function getDataRun(db: Db, orgId: string, runId: string): Promise<DataRunRecord> {
  const [row] = await db
    .select()
    .from(dataRuns)
    .where(and(eq(dataRuns.id, runId), eq(dataRuns.orgId, orgId)));
  if (!row) throw notFound(`Run ${runId}`);
  return row;
}

/** A page of the organization's runs, newest first, of one dataset when `datasetId` is given (`extractions`: the built-in one). */
export async function listDataRuns(
  db: Db,
  orgId: string,
  query: { skip: number; limit: number; datasetId?: string },
): Promise<{ runs: DataRunRecord[]; total: number }> {
  const conditions = [eq(dataRuns.orgId, orgId)];
  if (query.datasetId !== undefined) conditions.push(eq(dataRuns.datasetId, datasetRowId(orgId, query.datasetId)));
  const where = and(...conditions);
  const { rows: runs, total } = await pageOfTable(db, dataRuns, where, [desc(dataRuns.createdAt), desc(dataRuns.id)], query);
  return { runs, total };
}
