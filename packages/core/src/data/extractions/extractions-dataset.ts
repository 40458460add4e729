import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { datasets } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';

/**
 * The id that names an organization's built-in extractions dataset wherever a dataset id is
 * expected, as DocRouter's `default` names the default prompt. Datasets' ids are global, so its row
 * has an id of its own per organization; the API answers with this one.
 */
export const EXTRACTIONS_DATASET_ID = 'extractions';

const ROW_ID_PREFIX = `${EXTRACTIONS_DATASET_ID}-`;

const DESCRIPTION =
  'Built in: the extraction results as tables, one per prompt with a row per document (its latest result), and a table per list field keyed by document_id.';

/** The id of the organization's extractions dataset row (other datasets' ids are hex, so they never look like it). */
export const extractionsDatasetRowId = (orgId: string): string => `${ROW_ID_PREFIX}${orgId}`;

/** The stored id a dataset id names: `extractions` is the organization's built-in dataset. */
export const datasetRowId = (orgId: string, datasetId: string): string =>
  datasetId === EXTRACTIONS_DATASET_ID ? extractionsDatasetRowId(orgId) : datasetId;

/** Whether the dataset is an organization's built-in extractions dataset. */
export const isBuiltInDataset = (dataset: { id: string }): boolean => dataset.id.startsWith(ROW_ID_PREFIX);

/** The id the API shows: `extractions` for the built-in dataset, the stored id for the others. */
export const publicDatasetId = (datasetId: string): string =>
  datasetId.startsWith(ROW_ID_PREFIX) ? EXTRACTIONS_DATASET_ID : datasetId;

/**
 * The organization's extractions dataset row, made on first use. A dataset of the organization may
 * already be named "extractions" (case aside); the built-in one then takes another name.
 */
export async function ensureExtractionsDataset(db: Db, orgId: string): Promise<string> {
  const id = extractionsDatasetRowId(orgId);
  const exists = async () =>
    (
      await db
        .select({ id: datasets.id })
        .from(datasets)
        .where(and(eq(datasets.id, id), eq(datasets.orgId, orgId)))
    ).length > 0;
  if (await exists()) return id;
  for (const name of [EXTRACTIONS_DATASET_ID, `${EXTRACTIONS_DATASET_ID} (built-in)`]) {
    // Two requests may get here at once; the loser's insert does nothing.
    await db.insert(datasets).values({ id, orgId, name, description: DESCRIPTION, createdBy: 'docagent' }).onConflictDoNothing();
    if (await exists()) return id;
  }
  throw conflict(
    `Datasets named "${EXTRACTIONS_DATASET_ID}" and "${EXTRACTIONS_DATASET_ID} (built-in)" are in the way of the built-in extractions dataset; rename one of them and try again.`,
  );
}

/** What a person may not do to the built-in dataset, and what to do instead. */
export type BuiltInChange = 'change' | 'delete' | 'add tables to';

export function refuseBuiltInChange(change: BuiltInChange): never {
  const instead = {
    change: 'Create a dataset of your own (POST /datasets) to name and describe as you like.',
    delete: "To take a prompt's table out of it, delete that prompt or its results.",
    'add tables to': 'Add the file to a dataset of your own, or make one with create_dataset.',
  }[change];
  throw conflict(
    `The "${EXTRACTIONS_DATASET_ID}" dataset is built in: its tables are the extraction results, one per prompt, kept up to date by docagent, so you cannot ${change} it. ${instead}`,
  );
}
