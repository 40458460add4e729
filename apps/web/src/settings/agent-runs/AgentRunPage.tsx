import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { formatDateTime } from '../../lib/format';
import { AdminOnly } from '../AdminOnly';
import { SettingsSection } from '../SettingsSection';
import { settingsPath } from '../sections';
import { formatCount } from '../usage/usageFormat';
import { RunStatus, RunSubject, runCost, runUser } from './runDisplay';
import { type AgentRun, useRunQuery } from './runsApi';
import { ToolCallCard } from './ToolCallCard';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 truncate text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function RunFacts({ orgId, run }: { orgId: string; run: AgentRun }) {
  return (
    <dl aria-label="Run" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <Fact label="Started">{formatDateTime(run.created_at)}</Fact>
      <Fact label="User">{runUser(run)}</Fact>
      <Fact label="Subject">
        <RunSubject orgId={orgId} run={run} />
      </Fact>
      <Fact label="Status">
        <RunStatus status={run.status} />
      </Fact>
      <Fact label="Model">
        <span className="font-mono text-xs">{run.model}</span>
      </Fact>
      <Fact label="Tokens">
        {formatCount(run.usage.input_tokens ?? 0)} in · {formatCount(run.usage.output_tokens ?? 0)} out
      </Fact>
      <Fact label="Cost">{runCost(run)}</Fact>
      <Fact label="Last activity">{formatDateTime(run.updated_at)}</Fact>
    </dl>
  );
}

function RunBody({ runId }: { runId: string }) {
  const org = useCurrentOrg();
  const runQuery = useRunQuery(org.id, runId);
  if (runQuery.isPending) return <LoadingState label="Loading the run…" />;
  if (runQuery.isError) {
    return <ErrorAlert title="Could not load the run" error={runQuery.error} onRetry={() => void runQuery.refetch()} />;
  }
  const run = runQuery.data;
  return (
    <>
      <RunFacts orgId={org.id} run={run} />
      <div className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-900">
          Tool calls <span className="font-normal text-slate-500">({run.tool_calls.length})</span>
        </h3>
        {run.tool_calls.length === 0 ? (
          <p className="text-sm text-slate-600">The agent answered without calling a tool.</p>
        ) : (
          <ol aria-label="Tool calls" className="space-y-2">
            {run.tool_calls.map((call, index) => (
              <ToolCallCard key={`${call.round_index}-${call.call_id}`} call={call} index={index} />
            ))}
          </ol>
        )}
      </div>
    </>
  );
}

/** One agent run with each of its tool calls. Admins only. */
export function AgentRunPage() {
  const org = useCurrentOrg();
  const { runId = '' } = useParams();
  return (
    <AdminOnly what="its agent runs">
      <div className="space-y-3">
        <Link to={settingsPath(org.id, 'agent-runs')} className="text-sm text-slate-600 hover:text-slate-900">
          ← Agent runs
        </Link>
        <SettingsSection title="Agent run" description="What the agent was asked to work on, and each tool call it made.">
          <RunBody runId={runId} />
        </SettingsSection>
      </div>
    </AdminOnly>
  );
}
