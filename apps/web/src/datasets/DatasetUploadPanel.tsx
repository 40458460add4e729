import { useId, useState } from 'react';
import { Link } from 'react-router';
import { type Dataset, useCreateDatasetMutation, useDatasetChoicesQuery } from '../api/datasets';
import { ErrorAlert } from '../components/ErrorAlert';
import { SelectField } from '../components/SelectField';
import { TextField } from '../components/TextField';
import { UploadDropZone } from '../documents/UploadDropZone';
import { UploadList } from '../documents/UploadList';
import { datasetPagePath } from '../layout/orgPaths';
import { TABLE_FILES, useTableUploads } from './useTableUploads';

const NEW_DATASET = '';

const stemOf = (fileName: string) => fileName.replace(/\.[^.]+$/, '').trim() || fileName;

/**
 * Uploads CSV, TSV and XLSX files as tables, into a dataset chosen here or into a new one (made
 * first, named as typed or after the first file), so that each file has its own progress and error.
 */
export function DatasetUploadPanel({ orgId }: { orgId: string }) {
  const headingId = useId();
  const choices = useDatasetChoicesQuery(orgId);
  const createDataset = useCreateDatasetMutation(orgId);
  const { uploads, addTables, remove, clearFinished } = useTableUploads(orgId);
  const [target, setTarget] = useState(NEW_DATASET);
  const [newName, setNewName] = useState('');
  // The dataset just made, until the list of choices has read it.
  const [made, setMade] = useState<Dataset | null>(null);
  // The built-in dataset's tables are the extraction results: it takes no files.
  const datasets = (choices.data ?? []).filter((dataset) => !dataset.built_in);
  const targetDataset = datasets.find((d) => d.dataset_id === target) ?? (made?.dataset_id === target ? made : null);

  async function take(files: File[]) {
    let datasetId = target;
    if (datasetId === NEW_DATASET) {
      const first = files[0];
      if (!first) return;
      try {
        const dataset = await createDataset.mutateAsync({ name: newName.trim() || stemOf(first.name) });
        setMade(dataset);
        setNewName('');
        datasetId = dataset.dataset_id;
        setTarget(datasetId);
      } catch {
        // Shown below from the mutation's error; the files were not sent.
        return;
      }
    }
    addTables(files, datasetId);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-4 rounded-lg border border-slate-200 bg-white p-4 md:grid-cols-[16rem_minmax(0,1fr)]"
    >
      <div className="space-y-3">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Add tables
        </h2>
        <SelectField label="Into" value={target} onChange={(event) => setTarget(event.target.value)}>
          <option value={NEW_DATASET}>A new dataset</option>
          {made && !datasets.some((d) => d.dataset_id === made.dataset_id) && (
            <option value={made.dataset_id}>{made.name}</option>
          )}
          {datasets.map((dataset) => (
            <option key={dataset.dataset_id} value={dataset.dataset_id}>
              {dataset.name}
            </option>
          ))}
        </SelectField>
        {target === NEW_DATASET && (
          <TextField
            label="New dataset's name"
            placeholder="The first file's name"
            value={newName}
            onChange={(event) => setNewName(event.target.value)}
          />
        )}
        {targetDataset && (
          <Link
            to={datasetPagePath(orgId, targetDataset.dataset_id)}
            className="block text-sm font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900"
          >
            Open {targetDataset.name}
          </Link>
        )}
      </div>
      <UploadDropZone {...TABLE_FILES} onFiles={(files) => void take(files)} />
      {createDataset.isError && (
        <div className="md:col-span-2">
          <ErrorAlert title="Could not create the dataset" error={createDataset.error} />
        </div>
      )}
      {uploads.length > 0 && (
        <div className="md:col-span-2">
          <UploadList orgId={orgId} uploads={uploads} onRemove={remove} onClearFinished={clearFinished} />
        </div>
      )}
    </section>
  );
}
