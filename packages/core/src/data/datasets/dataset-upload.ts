import { type DocumentRecord, type DocumentServices, deleteDocument } from '../../documents/documents.ts';
import { type UploadFile, type UploadLimits, uploadDocuments } from '../../documents/upload.ts';
import { invalidInput } from '../../errors.ts';
import type { OrgAccess } from '../../identity/access.ts';
import { isBuiltInDataset, refuseBuiltInChange } from '../extractions/extractions-dataset.ts';
import type { DatasetServices } from './dataset-services.ts';
import { addDocumentTables, checkTableSources } from './dataset-tables.ts';
import { createDataset, type DatasetWithTables, getDataset, getDatasetRecord } from './datasets.ts';

/** Where an upload's files go as tables: an existing dataset, or a new one of this name. */
export interface UploadDatasetTarget {
  datasetId?: string;
  createDataset?: string;
}

async function intoDataset(
  services: DatasetServices,
  access: OrgAccess,
  target: UploadDatasetTarget,
  documentIds: string[],
): Promise<DatasetWithTables> {
  if (target.createDataset !== undefined) {
    if (target.datasetId !== undefined)
      throw invalidInput('Send dataset_id (add to a dataset) or create_dataset (make one), not both.');
    return createDataset(services, access, { name: target.createDataset, documentIds });
  }
  const dataset = await getDatasetRecord(services.db, access.orgId, target.datasetId ?? '');
  if (isBuiltInDataset(dataset)) refuseBuiltInChange('add tables to');
  const sources = await checkTableSources(services.db, access.orgId, documentIds);
  for (const source of sources) await addDocumentTables(services, dataset, source, undefined);
  return getDataset(services.db, access.orgId, dataset.id);
}

/**
 * Uploads documents and, when the upload asks for it, makes them tables of a dataset: an existing
 * one (`datasetId`) or a new one (`createDataset`, its name). The target is read once the files are
 * stored, since a multipart form may name it in fields streamed before them. The request stays all
 * or nothing: when the dataset part is refused (no such dataset, a name taken, a file that is not a
 * CSV, TSV or XLSX) the documents just stored are deleted. A file that cannot be read as a table is
 * not a refusal: its table answers `failed` with the reason.
 */
export async function uploadDocumentsToDataset(
  services: { documents: DocumentServices; datasets: DatasetServices },
  access: OrgAccess,
  files: Iterable<UploadFile> | AsyncIterable<UploadFile>,
  limits: UploadLimits,
  target: () => UploadDatasetTarget,
): Promise<{ documents: DocumentRecord[]; dataset: DatasetWithTables | null }> {
  const stored = await uploadDocuments(services.documents, access, files, limits);
  const wanted = target();
  if (wanted.datasetId === undefined && wanted.createDataset === undefined) return { documents: stored, dataset: null };
  const documentIds = stored.map((d) => d.id);
  try {
    return { documents: stored, dataset: await intoDataset(services.datasets, access, wanted, documentIds) };
  } catch (error) {
    // The refusal is what the caller needs to hear; a document that cannot be deleted now is not.
    for (const id of documentIds) await deleteDocument(services.documents, access.orgId, id).catch(() => undefined);
    throw error;
  }
}
