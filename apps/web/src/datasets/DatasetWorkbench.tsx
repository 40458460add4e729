import { useId } from 'react';
import type { Dataset, DatasetTable } from '../api/datasets';
import { QueryPanel } from './QueryPanel';
import { RunHistory } from './RunHistory';
import { TableList } from './TableList';
import { TablePreviewGrid } from './TablePreviewGrid';
import { type DatasetTab, useDatasetView } from './useDatasetView';

const tabs: { id: DatasetTab; label: string }[] = [
  { id: 'preview', label: 'Preview' },
  { id: 'query', label: 'Query' },
  { id: 'history', label: 'History' },
];

function TablePreview({ orgId, datasetId, table }: { orgId: string; datasetId: string; table: DatasetTable }) {
  if (table.status === 'pending') {
    return <p className="text-sm text-slate-600">{table.table_name} is being read in; its rows show here once it is ready.</p>;
  }
  if (table.status === 'failed') {
    return (
      <p role="alert" className="text-sm text-red-700">
        {table.table_name} could not be read in: {table.error ?? 'no reason was given'}. Fix the file and upload it again.
      </p>
    );
  }
  return <TablePreviewGrid key={table.table_id} orgId={orgId} datasetId={datasetId} table={table} />;
}

/**
 * The dataset's tables beside three views: a table's rows, a query box with its result, and the
 * runs so far. The views stay mounted when hidden, so a query and its result wait for the person's return.
 */
export function DatasetWorkbench({ orgId, dataset }: { orgId: string; dataset: Dataset }) {
  const baseId = useId();
  const { view, update } = useDatasetView();
  const table = dataset.tables.find((candidate) => candidate.table_name === view.table) ?? dataset.tables[0];
  const panelProps = (id: DatasetTab) => ({
    role: 'tabpanel',
    id: `${baseId}-${id}-panel`,
    'aria-labelledby': `${baseId}-${id}-tab`,
    hidden: view.tab !== id,
    className: 'flex min-h-0 flex-1 flex-col p-3',
  });

  return (
    <div className="grid h-full min-h-0 grid-cols-[15rem_minmax(0,1fr)] gap-3">
      <aside aria-label="Tables of the dataset" className="min-h-0 overflow-y-auto rounded-lg border border-slate-200 bg-white">
        <TableList
          tables={dataset.tables}
          selected={table?.table_name ?? null}
          onSelect={(tableName) => update({ table: tableName, tab: 'preview' })}
        />
      </aside>
      <div className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
        <div role="tablist" aria-label="Dataset views" className="flex shrink-0 gap-1 border-b border-slate-200 px-3">
          {tabs.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              id={`${baseId}-${candidate.id}-tab`}
              aria-selected={view.tab === candidate.id}
              aria-controls={`${baseId}-${candidate.id}-panel`}
              onClick={() => update({ tab: candidate.id })}
              className={`-mb-px border-b-2 px-2 py-2 text-sm font-medium ${view.tab === candidate.id ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
            >
              {candidate.label}
              {candidate.id === 'preview' && table && <span className="ml-1 font-mono font-normal">{table.table_name}</span>}
            </button>
          ))}
        </div>
        <div {...panelProps('preview')}>
          {table && <TablePreview orgId={orgId} datasetId={dataset.dataset_id} table={table} />}
        </div>
        <div {...panelProps('query')}>
          <QueryPanel orgId={orgId} dataset={dataset} />
        </div>
        <div {...panelProps('history')}>
          {view.tab === 'history' && (
            <RunHistory orgId={orgId} datasetId={dataset.dataset_id} openRunId={view.run} onOpen={(run) => update({ run })} />
          )}
        </div>
      </div>
    </div>
  );
}
