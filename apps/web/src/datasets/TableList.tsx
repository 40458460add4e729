import type { DatasetTable } from '../api/datasets';
import { TableStatusPill } from './TableStatusPill';

const numberFormat = new Intl.NumberFormat();

function plural(count: number, one: string, many: string): string {
  return `${numberFormat.format(count)} ${count === 1 ? one : many}`;
}

function ColumnList({ table }: { table: DatasetTable }) {
  return (
    <ul aria-label={`Columns of ${table.table_name}`} className="mt-2 space-y-0.5 border-t border-slate-100 pt-2">
      {table.columns.map((column) => (
        <li key={column.name} className="flex items-baseline justify-between gap-2 text-xs">
          <span className="min-w-0 truncate text-slate-800" title={column.name}>
            {column.name}
          </span>
          <span className="shrink-0 font-mono text-[11px] text-slate-500">{column.type}</span>
        </li>
      ))}
    </ul>
  );
}

interface TableListProps {
  tables: DatasetTable[];
  selected: string | null;
  onSelect: (tableName: string) => void;
}

/** The dataset's tables as SQL names them, with their state; the chosen one with its columns and types. */
export function TableList({ tables, selected, onSelect }: TableListProps) {
  return (
    <ul aria-label="Tables" className="divide-y divide-slate-100">
      {tables.map((table) => {
        const isSelected = table.table_name === selected;
        return (
          <li key={table.table_id} className={`px-3 py-2 ${isSelected ? 'bg-sky-50' : ''}`}>
            <button
              type="button"
              aria-current={isSelected ? 'true' : undefined}
              onClick={() => onSelect(table.table_name)}
              className="flex w-full items-center justify-between gap-2 text-left focus-visible:outline-2 focus-visible:outline-slate-500"
            >
              <span className="min-w-0 truncate font-mono text-sm font-medium text-slate-900" title={table.table_name}>
                {table.table_name}
              </span>
              <TableStatusPill status={table.status} />
            </button>
            <p className="mt-0.5 text-xs text-slate-600">
              {table.status === 'ready'
                ? plural(table.row_count, 'row', 'rows')
                : table.status === 'pending'
                  ? 'Reading the file…'
                  : 'No rows'}
              {table.skipped_rows > 0 && (
                <span className="text-amber-800"> · {plural(table.skipped_rows, 'line', 'lines')} skipped</span>
              )}
              {table.sheet_name !== null && <span> · sheet {table.sheet_name}</span>}
            </p>
            {table.status === 'failed' && table.error && <p className="mt-1 text-xs text-red-700">{table.error}</p>}
            {isSelected && table.columns.length > 0 && <ColumnList table={table} />}
          </li>
        );
      })}
    </ul>
  );
}
