import { useMemo, useState } from 'react';
import type { DataRun, RunResult } from '../api/datasets';
import { Button } from '../components/Button';
import { SegmentedControl } from '../components/SegmentedControl';
import { ResultChart } from './ResultChart';
import { ResultGrid } from './ResultGrid';
import { RunStatusPill } from './RunStatusPill';
import { saveFile, toCsv, toXlsx } from './resultFiles';
import { nextSort, type ResultSort, sortRows } from './resultSort';

type ResultView = 'table' | 'chart';

const numberFormat = new Intl.NumberFormat();

/** What the run's code was: Python as written, or the SQL that ran (a plan's compiled SQL included). */
export function runQuery(run: Pick<DataRun, 'python_code' | 'compiled_sql'>): { language: 'Python' | 'SQL'; code: string } {
  return run.python_code !== null
    ? { language: 'Python', code: run.python_code }
    : { language: 'SQL', code: run.compiled_sql ?? '' };
}

const resultViews = [
  { id: 'table', label: 'Table' },
  { id: 'chart', label: 'Chart' },
] as const;

function ViewSwitch({ view, onChange }: { view: ResultView; onChange: (view: ResultView) => void }) {
  return <SegmentedControl legend="Show the result as" options={resultViews} value={view} onChange={onChange} />;
}

function cutNote(result: RunResult): string | null {
  if (result.truncated === 'rows') {
    return `Only the first ${numberFormat.format(result.rows.length)} of ${numberFormat.format(result.row_count)} rows came back: aggregate, filter or add a LIMIT to see the ones that matter.`;
  }
  if (result.truncated === 'bytes') {
    return `The result was cut at ${numberFormat.format(result.rows.length)} rows by its size limit: select fewer or shorter columns.`;
  }
  return null;
}

/** A run as a person reads it: its status, its code, its error or its result as a sortable table or a chart, and downloads. */
export function RunView({ run, queryOpen = false }: { run: DataRun; queryOpen?: boolean }) {
  const [view, setView] = useState<ResultView>('table');
  const [sort, setSort] = useState<ResultSort | null>(null);
  const result = run.result;
  const rows = useMemo(() => (result ? sortRows(result.rows, sort) : []), [result, sort]);
  const query = runQuery(run);
  const note = result ? cutNote(result) : null;

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <RunStatusPill status={run.status} />
        {result && (
          <span className="text-sm text-slate-600 tabular-nums">
            {numberFormat.format(result.rows.length)} {result.rows.length === 1 ? 'row' : 'rows'} ·{' '}
            {numberFormat.format(result.exec_time_ms)} ms
          </span>
        )}
        {result && (
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <ViewSwitch view={view} onChange={setView} />
            <Button
              variant="secondary"
              onClick={() => saveFile(new Blob([toCsv(result.columns, rows)], { type: 'text/csv' }), `run-${run.run_id}.csv`)}
            >
              Download CSV
            </Button>
            <Button variant="secondary" onClick={() => saveFile(toXlsx(result.columns, rows), `run-${run.run_id}.xlsx`)}>
              Download XLSX
            </Button>
          </div>
        )}
      </div>
      <details open={queryOpen} className="shrink-0 rounded-md border border-slate-200 bg-slate-50 text-sm">
        <summary className="cursor-pointer px-3 py-1 text-xs font-medium text-slate-700">{query.language}</summary>
        <pre className="max-h-28 overflow-auto border-t border-slate-200 px-3 py-2 font-mono text-xs whitespace-pre-wrap text-slate-800">
          {query.code}
        </pre>
      </details>
      {note && <p className="shrink-0 text-xs text-amber-800">{note}</p>}
      {run.error && (
        <div role="alert" className="shrink-0 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          <p className="font-medium">
            {run.status === 'rejected' ? 'The query was refused before it ran' : 'The query failed'} ({run.error.code})
          </p>
          <p className="mt-1 font-mono text-xs whitespace-pre-wrap">{run.error.message}</p>
        </div>
      )}
      {result &&
        (view === 'table' ? (
          <ResultGrid
            columns={result.columns}
            rows={rows}
            sort={sort}
            onSort={(column) => setSort((current) => nextSort(current, column))}
          />
        ) : (
          <ResultChart columns={result.columns} rows={rows} />
        ))}
    </div>
  );
}
