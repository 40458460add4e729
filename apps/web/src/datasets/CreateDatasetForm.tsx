import { useNavigate } from 'react-router';
import { useCreateDatasetMutation } from '../api/datasets';
import { NameDescriptionForm } from '../components/NameDescriptionForm';
import { datasetPagePath } from '../layout/orgPaths';

/** Makes an empty dataset and opens it, where its tables are uploaded. */
export function CreateDatasetForm({ orgId, onCancel }: { orgId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const createDataset = useCreateDatasetMutation(orgId);
  return (
    <NameDescriptionForm
      noun="dataset"
      descriptionHint="What the tables hold, for the people and the agent who query them."
      pending={createDataset.isPending}
      error={createDataset.error}
      onSubmit={(values) =>
        createDataset.mutate(values, { onSuccess: (dataset) => navigate(datasetPagePath(orgId, dataset.dataset_id)) })
      }
      onCancel={onCancel}
    />
  );
}
