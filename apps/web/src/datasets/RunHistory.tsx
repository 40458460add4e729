import { useState } from 'react';
import { type DataRunSummary, runsPageSize, useDataRunQuery, useDatasetRunsQuery } from '../api/datasets';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { Pagination } from '../components/Pagination';
import { formatCompactDateTime } from '../lib/format';
import { RunStatusPill } from './RunStatusPill';
import { RunView, runQuery } from './RunView';

const modeLabels: Record<DataRunSummary['query_mode'], string> = { sql: 'SQL', plan: 'Plan', python: 'Python', chat: 'Chat' };

function RunItem({ run, isOpen, onOpen }: { run: DataRunSummary; isOpen: boolean; onOpen: () => void }) {
  const firstLine = runQuery(run).code.trim().split('\n')[0] ?? '';
  return (
    <li>
      <button
        type="button"
        aria-current={isOpen ? 'true' : undefined}
        onClick={onOpen}
        className={`block w-full px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-slate-500 ${isOpen ? 'bg-sky-50' : ''}`}
      >
        <span className="flex flex-wrap items-center justify-between gap-x-2">
          <span className="flex items-center gap-2">
            <RunStatusPill status={run.status} />
            <span className="text-xs font-medium text-slate-700">{modeLabels[run.query_mode]}</span>
          </span>
          <time dateTime={run.created_at} className="text-xs whitespace-nowrap text-slate-500">
            {formatCompactDateTime(run.created_at)}
          </time>
        </span>
        <span className="mt-1 block truncate font-mono text-xs text-slate-800">{run.question ?? firstLine}</span>
        {run.row_count !== null && (
          <span className="block text-xs text-slate-500">
            {run.row_count} {run.row_count === 1 ? 'row' : 'rows'}
          </span>
        )}
      </button>
    </li>
  );
}

function RunDetail({ orgId, datasetId, runId }: { orgId: string; datasetId: string; runId: string }) {
  const runQueryResult = useDataRunQuery(orgId, datasetId, runId);
  if (runQueryResult.isPending) return <LoadingState label="Loading the run…" />;
  if (!runQueryResult.data) return <ErrorAlert title="Could not load the run" error={runQueryResult.error} />;
  return <RunView key={runId} run={runQueryResult.data} queryOpen />;
}

interface RunHistoryProps {
  orgId: string;
  datasetId: string;
  openRunId: string | null;
  onOpen: (runId: string) => void;
}

/** The dataset's runs, newest first, the agent's included; one opens beside the list with its query and result. */
export function RunHistory({ orgId, datasetId, openRunId, onOpen }: RunHistoryProps) {
  const [skip, setSkip] = useState(0);
  const runsQuery = useDatasetRunsQuery(orgId, datasetId, skip);
  const list = runsQuery.data;
  return (
    <div className="grid min-h-0 flex-1 grid-cols-[14rem_minmax(0,1fr)] gap-3 2xl:grid-cols-[20rem_minmax(0,1fr)]">
      <section aria-label="Runs" className="flex min-h-0 flex-col gap-2">
        {runsQuery.isError && (
          <ErrorAlert title="Could not load the runs" error={runsQuery.error} onRetry={() => void runsQuery.refetch()} />
        )}
        {runsQuery.isPending && <LoadingState label="Loading the runs…" />}
        {list && list.total_count === 0 && (
          <p className="text-sm text-slate-600">No runs yet: queries run here, and the agent's, are listed as they happen.</p>
        )}
        {list && list.total_count > 0 && (
          <>
            <ul className="min-h-0 flex-1 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200">
              {list.runs.map((run) => (
                <RunItem key={run.run_id} run={run} isOpen={run.run_id === openRunId} onOpen={() => onOpen(run.run_id)} />
              ))}
            </ul>
            <Pagination
              label="Pages of runs"
              skip={list.skip}
              pageSize={runsPageSize}
              shown={list.runs.length}
              total={list.total_count}
              onSkipChange={setSkip}
            />
          </>
        )}
      </section>
      <section aria-label="Run" className="flex min-h-0 flex-col">
        {openRunId ? (
          <RunDetail orgId={orgId} datasetId={datasetId} runId={openRunId} />
        ) : (
          <p className="text-sm text-slate-600">Choose a run to see its query, its outcome and its result.</p>
        )}
      </section>
    </div>
  );
}
