import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type Dataset, useDeleteDatasetMutation } from '../api/datasets';
import { Button } from '../components/Button';
import { DetailHeader } from '../components/DetailHeader';
import { ErrorAlert } from '../components/ErrorAlert';
import { orgPath } from '../layout/orgPaths';
import { TableUploader } from './TableUploader';

/** The dataset's name and description, with adding tables and deleting it. */
export function DatasetHeader({ orgId, dataset }: { orgId: string; dataset: Dataset }) {
  const navigate = useNavigate();
  const deleteDataset = useDeleteDatasetMutation(orgId);
  // Once opened the uploader stays mounted, so that closing it does not lose the uploads it shows.
  const [uploaderState, setUploaderState] = useState<'never' | 'open' | 'closed'>('never');
  const hasTables = dataset.tables.length > 0;
  // The built-in dataset's tables are made from the extraction results: nothing to add, nothing to delete.
  const canChange = !dataset.built_in;

  function confirmDelete() {
    if (window.confirm(`Delete the dataset “${dataset.name}”, its tables and its runs? The uploaded documents stay.`)) {
      deleteDataset.mutate(dataset.dataset_id, { onSuccess: () => navigate(orgPath(orgId, 'datasets')) });
    }
  }

  return (
    <div className="space-y-2">
      <DetailHeader backTo={orgPath(orgId, 'datasets')} backLabel="All datasets" title={dataset.name}>
        {canChange && hasTables && (
          <Button
            variant="secondary"
            aria-expanded={uploaderState === 'open'}
            onClick={() => setUploaderState(uploaderState === 'open' ? 'closed' : 'open')}
          >
            {uploaderState === 'open' ? 'Close the upload' : 'Add tables'}
          </Button>
        )}
        {canChange && (
          <Button variant="danger" disabled={deleteDataset.isPending} onClick={confirmDelete}>
            Delete
          </Button>
        )}
      </DetailHeader>
      {dataset.description && <p className="text-sm text-slate-600">{dataset.description}</p>}
      {deleteDataset.isError && <ErrorAlert title="Could not delete the dataset" error={deleteDataset.error} />}
      {hasTables && uploaderState !== 'never' && (
        <div hidden={uploaderState === 'closed'}>
          <TableUploader orgId={orgId} datasetId={dataset.dataset_id} />
        </div>
      )}
    </div>
  );
}
