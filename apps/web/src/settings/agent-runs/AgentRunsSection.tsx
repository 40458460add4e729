import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { Pagination } from '../../components/Pagination';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { useClampedSkip } from '../../lib/useClampedSkip';
import { AdminOnly } from '../AdminOnly';
import { SettingsSection } from '../SettingsSection';
import { settingsPath } from '../sections';
import { RunsTable } from './RunsTable';
import { RUNS_PAGE_SIZE, useRunsQuery } from './runsApi';

function parseSkip(value: string | null): number {
  const skip = Number(value);
  return Number.isInteger(skip) && skip > 0 ? skip : 0;
}

function RunsList() {
  const org = useCurrentOrg();
  const [searchParams, setSearchParams] = useSearchParams();
  const skip = parseSkip(searchParams.get('skip'));
  const setSkip = (next: number) => setSearchParams(next === 0 ? {} : { skip: String(next) }, { replace: true });
  const runsQuery = useRunsQuery(org.id, skip);
  useClampedSkip({
    skip,
    pageSize: RUNS_PAGE_SIZE,
    total: runsQuery.data?.total_count,
    isPlaceholder: runsQuery.isPlaceholderData,
    onClamp: setSkip,
  });

  if (runsQuery.isPending) return <LoadingState label="Loading the agent runs…" />;
  if (runsQuery.isError) {
    return <ErrorAlert title="Could not load the agent runs" error={runsQuery.error} onRetry={() => void runsQuery.refetch()} />;
  }
  const { runs, total_count } = runsQuery.data;
  if (total_count === 0) {
    return (
      <EmptyState
        title="No agent runs yet"
        description="Each conversation turn with the agent, and each auto-create run, is recorded here with its tool calls."
      />
    );
  }
  return (
    <div className="space-y-3">
      <RunsTable
        orgId={org.id}
        runs={runs}
        detailPath={(run) => settingsPath(org.id, 'agent-runs', `/${encodeURIComponent(run.id)}`)}
      />
      <Pagination
        label="Pages of agent runs"
        skip={skip}
        pageSize={RUNS_PAGE_SIZE}
        shown={runs.length}
        total={total_count}
        onSkipChange={setSkip}
      />
    </div>
  );
}

/** The audit of the organization's agent runs, newest first. Admins only. */
export function AgentRunsSection() {
  return (
    <AdminOnly what="its agent runs">
      <SettingsSection
        title="Agent runs"
        description="Every agent turn: who asked, about what, with which model, and what each tool call did."
      >
        <RunsList />
      </SettingsSection>
    </AdminOnly>
  );
}
