import { useState } from 'react';
import { useDeliveriesQuery, useRedeliverMutation, type WebhookDelivery } from '../../api/webhooks';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { Pagination } from '../../components/Pagination';
import { StatusPill, type StatusTone } from '../../components/StatusPill';
import { formatDateTime } from '../../lib/format';

const PAGE = 20;
const COLUMNS = ['Event', 'Status', 'Attempts', 'Code', 'Error', 'Time'];

const TONES: Record<WebhookDelivery['status'], StatusTone> = { pending: 'working', succeeded: 'success', failed: 'failure' };
const LABELS: Record<WebhookDelivery['status'], string> = { pending: 'Pending', succeeded: 'Delivered', failed: 'Failed' };

function statusTitle(d: WebhookDelivery): string | undefined {
  if (d.status === 'pending' && d.next_attempt_at) return `Next attempt ${formatDateTime(d.next_attempt_at)}`;
  if (d.delivered_at) return `Delivered ${formatDateTime(d.delivered_at)}`;
  return undefined;
}

/** An endpoint's deliveries, newest first, a page at a time, with "Send again" on each. */
export function DeliveryLog({ orgId, endpointId }: { orgId: string; endpointId: string }) {
  const [skip, setSkip] = useState(0);
  const deliveries = useDeliveriesQuery(orgId, endpointId, skip, PAGE);
  const redeliver = useRedeliverMutation(orgId, endpointId);

  if (deliveries.isPending) return <LoadingState label="Loading deliveries…" />;
  if (deliveries.isError) {
    return (
      <ErrorAlert title="Could not load the deliveries" error={deliveries.error} onRetry={() => void deliveries.refetch()} />
    );
  }
  const { deliveries: rows, total_count: total } = deliveries.data;
  return (
    <div className="space-y-3">
      {redeliver.isError && <ErrorAlert title="Could not send it again" error={redeliver.error} />}
      <DataTable columns={COLUMNS}>
        {rows.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length + 1} className="px-4 py-6 text-center text-slate-500">
              Nothing sent yet. Events this endpoint receives, and tests, show here.
            </td>
          </tr>
        )}
        {rows.map((d) => (
          <tr key={d.id} data-testid="webhook-delivery">
            <td className="px-4 py-2 font-mono text-xs text-slate-900">{d.event}</td>
            <td className="px-4 py-2">
              <StatusPill tone={TONES[d.status]} title={statusTitle(d)}>
                {LABELS[d.status]}
              </StatusPill>
            </td>
            <td className="px-4 py-2 tabular-nums">{d.attempts}</td>
            <td className="px-4 py-2 tabular-nums">{d.last_status_code ?? '—'}</td>
            <td className="max-w-xs px-4 py-2 text-xs break-words text-slate-600">{d.last_error ?? ''}</td>
            <td className="px-4 py-2 whitespace-nowrap">
              <time dateTime={d.created_at}>{formatDateTime(d.created_at)}</time>
            </td>
            <td className="px-4 py-2 text-right">
              <Button
                variant="secondary"
                disabled={redeliver.isPending && redeliver.variables === d.id}
                onClick={() => redeliver.mutate(d.id)}
              >
                Send again
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      {total > PAGE && (
        <Pagination
          label="Pages of deliveries"
          skip={skip}
          pageSize={PAGE}
          shown={rows.length}
          total={total}
          onSkipChange={setSkip}
        />
      )}
    </div>
  );
}
