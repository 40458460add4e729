import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { Column } from '../api/datasets';
import { SegmentedControl } from '../components/SegmentedControl';
import { type ChartKind, ChartSvg } from './ChartSvg';
import { cellText, columnKind, numberOf } from './columnValues';

interface ResultChartProps {
  columns: Column[];
  /** In the order shown in the grid: sorting there orders the chart. */
  rows: unknown[][];
}

/** The columns a chart can be drawn from: labels (text or dates) along, numbers up. */
function chartColumns(columns: Column[]) {
  const indexed = columns.map((column, index) => ({ ...column, index, kind: columnKind(column.type) }));
  return {
    labels: indexed.filter((column) => column.kind === 'text' || column.kind === 'date'),
    values: indexed.filter((column) => column.kind === 'number'),
  };
}

function useElementSize(ref: RefObject<HTMLElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setSize((current) =>
        current.width === element.clientWidth && current.height === element.clientHeight
          ? current
          : { width: element.clientWidth, height: element.clientHeight },
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

const selectClass =
  'rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-sm text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none';

/**
 * A bar or line chart of a number column over a text or date column of the result (dates as a
 * line at first, text as bars); both columns and the kind can be changed.
 */
const chartKinds = [
  { id: 'bar', label: 'Bar' },
  { id: 'line', label: 'Line' },
] as const;

export function ResultChart({ columns, rows }: ResultChartProps) {
  const { labels, values } = chartColumns(columns);
  const [labelIndex, setLabelIndex] = useState(labels[0]?.index ?? -1);
  const [valueIndex, setValueIndex] = useState(values[0]?.index ?? -1);
  const [chosenKind, setChosenKind] = useState<ChartKind | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(boxRef);

  const labelColumn = columns[labelIndex];
  const valueColumn = columns[valueIndex];
  if (!labelColumn || !valueColumn) {
    return (
      <p className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-sm text-slate-600">
        A chart needs a text or date column and a number column; this result has{' '}
        {labels.length === 0 ? 'no text or date column' : 'no number column'}. Select one in the query to chart it.
      </p>
    );
  }
  const kind = chosenKind ?? (columnKind(labelColumn.type) === 'date' ? 'line' : 'bar');
  const points = rows.flatMap((row) => {
    const value = numberOf(row[valueIndex]);
    return value === null ? [] : [{ label: cellText(row[labelIndex]), value }];
  });

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <SegmentedControl legend="Chart kind" options={chartKinds} value={kind} onChange={setChosenKind} />
        <label className="flex items-center gap-1.5">
          Along
          <select className={selectClass} value={labelIndex} onChange={(event) => setLabelIndex(Number(event.target.value))}>
            {labels.map((column) => (
              <option key={column.index} value={column.index}>
                {column.name}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5">
          Value
          <select className={selectClass} value={valueIndex} onChange={(event) => setValueIndex(Number(event.target.value))}>
            {values.map((column) => (
              <option key={column.index} value={column.index}>
                {column.name}
              </option>
            ))}
          </select>
        </label>
        {points.length < rows.length && (
          <span className="text-xs text-slate-500">{rows.length - points.length} rows without a number are left out.</span>
        )}
      </div>
      <div ref={boxRef} className="min-h-40 flex-1 overflow-hidden rounded-md border border-slate-200 bg-white">
        {size.width > 0 && (
          <ChartSvg
            kind={kind}
            points={points}
            width={size.width}
            height={size.height}
            label={`${kind === 'bar' ? 'Bar' : 'Line'} chart of ${valueColumn.name} by ${labelColumn.name}`}
          />
        )}
      </div>
    </div>
  );
}
