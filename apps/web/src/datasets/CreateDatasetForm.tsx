import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateDatasetMutation } from '../api/datasets';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import { datasetPagePath } from '../layout/orgPaths';

/** Makes an empty dataset and opens it, where its tables are uploaded. */
export function CreateDatasetForm({ orgId, onCancel }: { orgId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const createDataset = useCreateDatasetMutation(orgId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    createDataset.mutate(
      { name: name.trim(), description: description.trim() },
      { onSuccess: (dataset) => navigate(datasetPagePath(orgId, dataset.dataset_id)) },
    );
  }

  return (
    <form onSubmit={submit} aria-label="New dataset" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-3 md:grid-cols-[16rem_minmax(0,1fr)]">
        <TextField label="Name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        <TextAreaField
          label="Description"
          rows={2}
          maxLength={4000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          hint="What the tables hold, for the people and the agent who query them."
        />
      </div>
      {createDataset.isError && <ErrorAlert title="Could not create the dataset" error={createDataset.error} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={createDataset.isPending || name.trim() === ''}>
          {createDataset.isPending ? 'Creating…' : 'Create dataset'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
