import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { AdminOnly } from '../AdminOnly';
import { SettingsSection } from '../SettingsSection';
import { MonthPicker } from './MonthPicker';
import { formatMonth, parseMonth } from './months';
import { UsageTable } from './UsageTable';
import { UsageTotalsCards } from './UsageTotalsCards';
import { useUsageQuery } from './usageApi';
import { operationLabel } from './usageFormat';

function UsageBody({ orgId, month }: { orgId: string; month: string }) {
  const usageQuery = useUsageQuery(orgId, month);
  if (usageQuery.isPending) return <LoadingState label="Loading the usage…" />;
  if (usageQuery.isError) {
    return <ErrorAlert title="Could not load the usage" error={usageQuery.error} onRetry={() => void usageQuery.refetch()} />;
  }
  const usage = usageQuery.data;
  if (usage.totals.calls === 0) {
    return (
      <EmptyState
        title={`No LLM calls in ${formatMonth(month)}`}
        description="Extractions, agent conversations and auto-create runs are counted here as they call a model."
      />
    );
  }
  return (
    <div className={`space-y-5 ${usageQuery.isPlaceholderData ? 'opacity-60' : ''}`}>
      <UsageTotalsCards totals={usage.totals} />
      <UsageTable
        label="Usage per model"
        keyHeading="Model"
        rows={usage.by_model.map((row) => ({ ...row, key: row.model, label: row.model, mono: true }))}
      />
      <UsageTable
        label="Usage per operation"
        keyHeading="Operation"
        rows={usage.by_operation.map((row) => ({ ...row, key: row.operation, label: operationLabel(row.operation) }))}
      />
    </div>
  );
}

/** The organization's LLM spend and tokens in a month, per model and per operation. Admins only. */
export function UsageSection() {
  const org = useCurrentOrg();
  const [searchParams, setSearchParams] = useSearchParams();
  const month = parseMonth(searchParams.get('month'));
  return (
    <AdminOnly what="its usage">
      <SettingsSection
        title="Usage"
        description={`What ${org.name}'s LLM calls used and cost in ${formatMonth(month)} (UTC).`}
        actions={<MonthPicker month={month} onChange={(next) => setSearchParams({ month: next }, { replace: true })} />}
      >
        <UsageBody orgId={org.id} month={month} />
      </SettingsSection>
    </AdminOnly>
  );
}
