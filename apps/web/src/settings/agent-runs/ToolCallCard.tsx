import { Link } from 'react-router';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { settingsPath } from '../sections';
import { JsonDetails } from './JsonDetails';
import { DecisionPill } from './runDisplay';
import type { AuditedCall } from './runsApi';

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** One tool call of a run: what was called, how it was decided and why, with its arguments and what came back. */
export function ToolCallCard({ call, index }: { call: AuditedCall; index: number }) {
  const org = useCurrentOrg();
  return (
    <li className="space-y-2 rounded-md border border-slate-200 px-4 py-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-slate-500 tabular-nums">#{index + 1}</span>
        <span className="font-mono text-sm font-medium text-slate-900">{call.name}</span>
        <DecisionPill decision={call.decision} />
        {!call.success && call.decision !== 'rejected' && call.decision !== 'denied' && call.decision !== 'stopped' && (
          <span className="text-xs font-medium text-red-700">Failed</span>
        )}
        <span className="ml-auto text-xs text-slate-500">
          step {call.round_index + 1} · {duration(call.duration_ms)}
        </span>
      </div>
      <p className="text-sm text-slate-700">
        <span className="text-slate-500">Reason: </span>
        {call.reason}
        {call.rule_id && (
          <>
            {' '}
            <Link className="text-indigo-700 underline" to={settingsPath(org.id, 'rules', `#rule-${call.rule_id}`)}>
              See the rule
            </Link>
          </>
        )}
      </p>
      {call.error && (
        <p className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          <span className="font-medium">Error: </span>
          {call.error}
        </p>
      )}
      <div className="grid items-start gap-2 lg:grid-cols-2">
        <JsonDetails label="Arguments" value={call.arguments} />
        <JsonDetails label="Output" value={call.output} />
      </div>
    </li>
  );
}
