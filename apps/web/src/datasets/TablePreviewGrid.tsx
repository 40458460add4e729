import { useRef } from 'react';
import type { DatasetTable } from '../api/datasets';
import { ErrorAlert } from '../components/ErrorAlert';
import { cellText, columnKind, columnWidth } from './columnValues';
import { useTableRows } from './useTableRows';
import { useVirtualRows } from './useVirtualRows';

/** Every row is this tall, so that a row's place is its index times it, with no measuring. */
const ROW_HEIGHT = 28;
const HEADER_HEIGHT = 44;
const NUMBER_WIDTH = 80;

const numberFormat = new Intl.NumberFormat();

function Cell({ value, type, width }: { value: unknown; type: string; width: number }) {
  const text = cellText(value);
  const alignRight = columnKind(type) === 'number';
  return (
    <td
      title={text.length > 24 ? text : undefined}
      style={{ width }}
      className={`block shrink-0 truncate border-r border-slate-100 px-2 leading-7 ${alignRight ? 'text-right tabular-nums' : ''}`}
    >
      {value === null ? <span className="text-slate-400 italic">null</span> : text}
    </td>
  );
}

/** A row whose page is on its way: a grey bar per cell. */
function LoadingCells({ widths }: { widths: number[] }) {
  return widths.map((width, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the placeholders are the columns, in their fixed order.
    <td key={i} style={{ width }} className="flex shrink-0 items-center border-r border-slate-100 px-2">
      <span aria-hidden="true" className="block h-2.5 w-2/3 rounded bg-slate-100" />
    </td>
  ));
}

/**
 * A table's rows as a grid that scrolls through any number of them: only the rows in view are
 * rendered, each placed where it belongs inside a body as tall as all the rows, and their pages
 * are read from the server as the view comes to rest. The table's parts are laid out as blocks
 * and flex rows (fixed widths and heights), keeping their table semantics for screen readers.
 */
export function TablePreviewGrid({ orgId, datasetId, table }: { orgId: string; datasetId: string; table: DatasetTable }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowCount = table.row_count;
  const view = useVirtualRows(scrollRef, rowCount, ROW_HEIGHT, HEADER_HEIGHT);
  const rows = useTableRows(orgId, { datasetId, tableName: table.table_name, rowCount }, view.start, view.end);
  const widths = table.columns.map((column) => columnWidth(column.type));
  const totalWidth = NUMBER_WIDTH + widths.reduce((sum, width) => sum + width, 0);

  const shown = [];
  for (let index = view.start; index < view.end; index++) {
    const row = rows.rowAt(index);
    shown.push(
      <tr
        key={index}
        aria-rowindex={index + 2}
        className="absolute inset-x-0 top-0 flex border-b border-slate-100"
        style={{ height: ROW_HEIGHT, transform: `translateY(${view.blockTop + (index - view.start) * ROW_HEIGHT}px)` }}
      >
        <th
          scope="row"
          style={{ width: NUMBER_WIDTH }}
          className="sticky left-0 block shrink-0 border-r border-slate-200 bg-slate-50 px-2 text-right leading-7 font-normal text-slate-500 tabular-nums"
        >
          {numberFormat.format(index + 1)}
        </th>
        {row ? (
          table.columns.map((column, i) => (
            <Cell key={column.name} value={row[i] ?? null} type={column.type} width={widths[i] ?? 0} />
          ))
        ) : (
          <LoadingCells widths={widths} />
        )}
      </tr>,
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      {rows.error && <ErrorAlert title="Could not load these rows" error={rows.error} onRetry={rows.retry} />}
      <div
        ref={scrollRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable to be scrolled without a mouse.
        tabIndex={0}
        className="min-h-0 flex-1 overflow-auto rounded-md border border-slate-200 bg-white text-sm text-slate-800 focus-visible:outline-2 focus-visible:outline-slate-500"
      >
        <table
          aria-label={`Rows of ${table.table_name}`}
          aria-rowcount={rowCount + 1}
          style={{ width: totalWidth, minWidth: '100%' }}
          className="block text-left"
        >
          <thead className="sticky top-0 z-10 block">
            <tr aria-rowindex={1} style={{ height: HEADER_HEIGHT }} className="flex border-b border-slate-200 bg-slate-50">
              <th
                scope="col"
                style={{ width: NUMBER_WIDTH }}
                className="sticky left-0 z-10 block shrink-0 border-r border-slate-200 bg-slate-50 px-2 pt-1 text-right text-xs font-medium text-slate-500"
              >
                #
              </th>
              {table.columns.map((column, i) => (
                <th
                  key={column.name}
                  scope="col"
                  style={{ width: widths[i] }}
                  className={`block shrink-0 border-r border-slate-200 px-2 pt-1 font-normal ${columnKind(column.type) === 'number' ? 'text-right' : ''}`}
                >
                  <span className="block truncate text-xs font-semibold text-slate-800" title={column.name}>
                    {column.name}
                  </span>
                  <span className="block truncate font-mono text-[11px] text-slate-500">{column.type}</span>
                </th>
              ))}
            </tr>
          </thead>
          {/* Clipped without being a scroll container, so that the row numbers stay sticky to the grid's own scrolling. */}
          <tbody className="relative block overflow-clip" style={{ height: view.spacerHeight }}>
            {shown}
          </tbody>
        </table>
      </div>
      <p className="shrink-0 text-xs text-slate-600 tabular-nums">
        {rowCount === 0
          ? 'This table has no rows.'
          : `Rows ${numberFormat.format(view.firstVisible + 1)}–${numberFormat.format(Math.max(view.firstVisible + 1, view.lastVisible))} of ${numberFormat.format(rowCount)}`}
      </p>
    </div>
  );
}
