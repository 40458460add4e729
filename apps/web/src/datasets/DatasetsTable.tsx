import { Link } from 'react-router';
import type { Dataset } from '../api/datasets';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { datasetPagePath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';

const COLUMNS = ['Name', 'Tables', 'Rows', 'Updated'];

const numberFormat = new Intl.NumberFormat();

function TablesCell({ dataset }: { dataset: Dataset }) {
  const pending = dataset.tables.filter((table) => table.status === 'pending').length;
  const failed = dataset.tables.filter((table) => table.status === 'failed').length;
  return (
    <>
      <span className="tabular-nums">{dataset.tables.length}</span>
      {pending > 0 && <span className="text-sky-800"> · {pending} reading in</span>}
      {failed > 0 && <span className="text-red-700"> · {failed} failed</span>}
    </>
  );
}

/** The newest change of the dataset or of one of its tables. */
function updatedAt(dataset: Dataset): string {
  return [dataset.updated_at, ...dataset.tables.map((table) => table.updated_at)].sort().at(-1) ?? dataset.updated_at;
}

interface DatasetsTableProps {
  orgId: string;
  datasets: Dataset[];
  onDelete: (dataset: Dataset) => void;
  deletingId: string | null;
}

export function DatasetsTable({ orgId, datasets, onDelete, deletingId }: DatasetsTableProps) {
  return (
    <DataTable columns={COLUMNS}>
      {datasets.map((dataset) => {
        const updated = updatedAt(dataset);
        const rows = dataset.tables.reduce((sum, table) => sum + table.row_count, 0);
        return (
          <tr key={dataset.dataset_id} className="align-top">
            <td className="max-w-96 px-4 py-2.5">
              <Link
                to={datasetPagePath(orgId, dataset.dataset_id)}
                className="font-medium break-words text-slate-900 underline-offset-2 hover:underline"
              >
                {dataset.name}
              </Link>
              {dataset.built_in && (
                <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">Built in</span>
              )}
              {dataset.description && <p className="line-clamp-1 text-xs text-slate-500">{dataset.description}</p>}
            </td>
            <td className="px-4 py-2.5 whitespace-nowrap">
              <TablesCell dataset={dataset} />
            </td>
            <td className="px-4 py-2.5 tabular-nums">{numberFormat.format(rows)}</td>
            <td className="px-4 py-2.5 whitespace-nowrap">
              <time dateTime={updated}>{formatDateTime(updated)}</time>
            </td>
            <td className="px-4 py-2.5 text-right">
              {!dataset.built_in && (
                <Button
                  variant="danger"
                  className="px-2.5 py-1 text-xs"
                  aria-label={`Delete dataset ${dataset.name}`}
                  disabled={deletingId === dataset.dataset_id}
                  onClick={() => onDelete(dataset)}
                >
                  Delete
                </Button>
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
