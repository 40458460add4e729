import { Link } from 'react-router';
import { formatCompactDateTime } from '../../lib/format';
import { RunStatus, RunSubject, runCost, runUser } from './runDisplay';
import type { AgentRun } from './runsApi';

const HEAD = 'px-3 py-2';
const CELL = 'px-3 py-2';

interface RunsTableProps {
  orgId: string;
  runs: AgentRun[];
  /** Where one run's details are. */
  detailPath: (run: AgentRun) => string;
}

/** The runs of a page: when, who, about what, with which model, how it ended, how many tool calls, what it cost. */
export function RunsTable({ orgId, runs, detailPath }: RunsTableProps) {
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table aria-label="Agent runs" className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50 text-xs font-medium tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className={HEAD}>
              Date
            </th>
            <th scope="col" className={HEAD}>
              User
            </th>
            <th scope="col" className={HEAD}>
              Subject
            </th>
            <th scope="col" className={HEAD}>
              Model
            </th>
            <th scope="col" className={HEAD}>
              Status
            </th>
            <th scope="col" className={`${HEAD} text-right`}>
              Tool calls
            </th>
            <th scope="col" className={`${HEAD} text-right`}>
              Cost
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {runs.map((run) => (
            <tr key={run.id} className="hover:bg-slate-50">
              <td className={`${CELL} whitespace-nowrap`}>
                <Link
                  to={detailPath(run)}
                  aria-label={`Details of the run of ${formatCompactDateTime(run.created_at)}`}
                  className="font-medium text-slate-900 underline decoration-slate-300 hover:decoration-slate-900"
                >
                  <time dateTime={run.created_at}>{formatCompactDateTime(run.created_at)}</time>
                </Link>
              </td>
              <td className={`${CELL} max-w-36 truncate`} title={runUser(run)}>
                {runUser(run)}
              </td>
              <td className={`${CELL} max-w-40 truncate`}>
                <RunSubject orgId={orgId} run={run} />
              </td>
              <td className={`${CELL} font-mono text-xs whitespace-nowrap`}>{run.model}</td>
              <td className={CELL}>
                <RunStatus status={run.status} />
              </td>
              <td className={`${CELL} text-right tabular-nums`}>{run.tool_calls.length}</td>
              <td className={`${CELL} text-right whitespace-nowrap tabular-nums`}>{runCost(run)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
