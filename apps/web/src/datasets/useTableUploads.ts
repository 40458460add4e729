import { useRefreshDatasets } from '../api/datasets';
import { useUploadQueue } from '../documents/useUploadQueue';

/** What the drop zones of the dataset pages take and say. */
export const TABLE_FILES = {
  label: 'Upload tables',
  hint: 'CSV, TSV or XLSX files: each file, and each sheet of a workbook, becomes a table.',
  accept: '.csv,.tsv,.xlsx,text/csv,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * The documents upload queue, each file sent with `dataset_id` so that it becomes a table there.
 * Auto-create is off: a table is queried, not extracted from, whatever the organization's default.
 */
export function useTableUploads(orgId: string) {
  const refreshDatasets = useRefreshDatasets(orgId);
  const queue = useUploadQueue(orgId, () => void refreshDatasets());
  return {
    ...queue,
    addTables: (files: File[], datasetId: string) => queue.addFiles(files, { auto_create: 'false', dataset_id: datasetId }),
  };
}
