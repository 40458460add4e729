import { useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDatasetQuery } from '../api/datasets';
import { SubjectAgentPanel } from '../chat/SubjectAgentPanel';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NotFoundState } from '../components/NotFoundState';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath } from '../layout/orgPaths';
import { Workspace } from '../layout/panels/Workspace';
import { DatasetHeader } from './DatasetHeader';
import { DatasetWorkbench } from './DatasetWorkbench';
import { TableUploader } from './TableUploader';

function DatasetView({ orgId, datasetId }: { orgId: string; datasetId: string }) {
  const datasetQuery = useDatasetQuery(orgId, datasetId);
  if (datasetQuery.isPending) {
    return <LoadingState label="Loading the dataset…" />;
  }
  if (datasetQuery.error instanceof ApiError && datasetQuery.error.status === 404) {
    return <NotFoundState what="Dataset" backTo={orgPath(orgId, 'datasets')} backLabel="Go to the datasets" />;
  }
  if (!datasetQuery.data) {
    return (
      <ErrorAlert title="Could not load the dataset" error={datasetQuery.error} onRetry={() => void datasetQuery.refetch()} />
    );
  }
  const dataset = datasetQuery.data;
  return (
    <Workspace
      header={
        <>
          <DatasetHeader orgId={orgId} dataset={dataset} />
          {datasetQuery.isError && (
            <ErrorAlert
              title="Could not refresh the dataset"
              error={datasetQuery.error}
              onRetry={() => void datasetQuery.refetch()}
            />
          )}
        </>
      }
    >
      <div className="grid h-full min-h-0 grid-cols-[minmax(0,1fr)_22rem] gap-3 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="min-h-0 overflow-y-auto">
          {dataset.tables.length > 0 ? (
            <DatasetWorkbench orgId={orgId} dataset={dataset} />
          ) : dataset.built_in ? (
            <p className="mx-auto max-w-2xl pt-6 text-sm text-slate-700">
              No extraction results yet. Once prompts have run on documents, each prompt's results show here as a table, a row per
              document, ready to query.
            </p>
          ) : (
            <section aria-label="No tables yet" className="mx-auto max-w-2xl space-y-3 pt-6">
              <p className="text-sm text-slate-700">
                This dataset has no tables yet. Upload CSV, TSV or XLSX files: each becomes a table you can preview and query with
                SQL or Python.
              </p>
              <TableUploader orgId={orgId} datasetId={dataset.dataset_id} />
            </section>
          )}
        </div>
        <SubjectAgentPanel
          orgId={orgId}
          subject={{ kind: 'dataset', id: dataset.dataset_id }}
          emptyText="Ask the agent about this dataset: it queries the tables for you, and its runs show in the history."
        />
      </div>
    </Workspace>
  );
}

/** A dataset's tables, their rows, queries over them and the runs so far. */
export function DatasetPage() {
  const org = useCurrentOrg();
  const { datasetId } = useParams();
  // Keyed so that moving to another dataset starts from its own loading state.
  return datasetId ? <DatasetView key={`${org.id}/${datasetId}`} orgId={org.id} datasetId={datasetId} /> : null;
}
