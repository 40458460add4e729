import { type Dataset, useDatasetsQuery, useDeleteDatasetMutation } from '../api/datasets';
import { listPageSize } from '../api/pagedList';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { useClampedSkip } from '../lib/useClampedSkip';
import { useNameListParams } from '../lib/useNameListParams';
import { DatasetsTable } from './DatasetsTable';

/** The organization's datasets, newest first: search, table and pages. */
export function DatasetsSection({ orgId }: { orgId: string }) {
  const { params, update } = useNameListParams();
  const datasetsQuery = useDatasetsQuery(orgId, params);
  const deleteDataset = useDeleteDatasetMutation(orgId);
  const list = datasetsQuery.data;
  useClampedSkip({
    skip: params.skip,
    pageSize: listPageSize,
    total: list?.total_count,
    isPlaceholder: datasetsQuery.isPlaceholderData,
    onClamp: (skip) => update({ skip }, { replace: true }),
  });

  function confirmDelete(dataset: Dataset) {
    if (window.confirm(`Delete the dataset “${dataset.name}”, its tables and its runs? The uploaded documents stay.`)) {
      deleteDataset.mutate(dataset.dataset_id);
    }
  }

  return (
    <section aria-label="Datasets" className="space-y-4">
      <NameSearch
        label="Search datasets by name"
        value={params.nameSearch}
        onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
      />
      {datasetsQuery.isError && (
        <ErrorAlert title="Could not load datasets" error={datasetsQuery.error} onRetry={() => void datasetsQuery.refetch()} />
      )}
      {deleteDataset.isError && <ErrorAlert title="Could not delete the dataset" error={deleteDataset.error} />}
      {datasetsQuery.isPending && <LoadingState label="Loading datasets…" />}
      {list && list.total_count === 0 && params.nameSearch === '' && (
        <EmptyState
          title="No datasets yet"
          description="A dataset is a set of tables from CSV, TSV and XLSX files that you (and the agent) query with SQL or Python. Upload files above to make one."
        />
      )}
      {list && list.total_count === 0 && params.nameSearch !== '' && (
        <EmptyState title="No matching datasets" description="No dataset name contains this search.">
          <Button variant="secondary" onClick={() => update({ nameSearch: '' })}>
            Show all datasets
          </Button>
        </EmptyState>
      )}
      {list && list.total_count > 0 && (
        <>
          <DatasetsTable
            orgId={orgId}
            datasets={list.datasets}
            onDelete={confirmDelete}
            deletingId={deleteDataset.isPending ? (deleteDataset.variables ?? null) : null}
          />
          <Pagination
            label="Pages of datasets"
            skip={list.skip}
            pageSize={listPageSize}
            shown={list.datasets.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
