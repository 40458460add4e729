import { useState } from 'react';
import {
  useDeleteWebhookMutation,
  useRollWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  type WebhookEndpoint,
} from '../../api/webhooks';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StatusPill } from '../../components/StatusPill';
import { DeliveryLog } from './DeliveryLog';
import type { ShownSecret } from './WebhooksSection';

interface CardProps {
  orgId: string;
  endpoint: WebhookEndpoint;
  onSecret: (shown: ShownSecret) => void;
}

/** One endpoint: where it sends, what, whether it is on; its actions, and its delivery log on demand. */
export function WebhookEndpointCard({ orgId, endpoint, onSecret }: CardProps) {
  const [logOpen, setLogOpen] = useState(false);
  const update = useUpdateWebhookMutation(orgId);
  const remove = useDeleteWebhookMutation(orgId);
  const roll = useRollWebhookSecretMutation(orgId);
  const sendTest = useTestWebhookMutation(orgId, endpoint.id);
  const failure = update.error ?? remove.error ?? roll.error ?? sendTest.error;

  function toggle() {
    const { url, events, description } = endpoint;
    update.mutate({ id: endpoint.id, url, events, description, enabled: !endpoint.enabled });
  }

  function rollSecret() {
    if (!window.confirm(`Make a new secret for ${endpoint.url}? The current one stops signing at once, so update the receiver.`))
      return;
    roll.mutate(endpoint.id, {
      onSuccess: (rolled) => onSecret({ title: `New signing secret for ${rolled.url}`, secret: rolled.secret }),
    });
  }

  function deleteEndpoint() {
    if (window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log? Events stop going there at once.`)) {
      remove.mutate(endpoint.id);
    }
  }

  function test() {
    setLogOpen(true);
    sendTest.mutate();
  }

  return (
    <article aria-label={`Webhook ${endpoint.url}`} className="rounded-md border border-slate-200 bg-white">
      <div className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <code className="font-mono text-sm break-all text-slate-900">{endpoint.url}</code>
            <StatusPill tone={endpoint.enabled ? 'success' : 'neutral'}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</StatusPill>
          </div>
          {endpoint.description && <p className="mt-1 text-sm text-slate-600">{endpoint.description}</p>}
          <ul className="mt-2 flex flex-wrap gap-1" aria-label="Events">
            {endpoint.events.map((event) => (
              <li key={event} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                {event}
              </li>
            ))}
          </ul>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={test} disabled={!endpoint.enabled || sendTest.isPending}>
            Send test
          </Button>
          <Button variant="secondary" onClick={toggle} disabled={update.isPending}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="secondary" onClick={rollSecret} disabled={roll.isPending}>
            Roll secret
          </Button>
          <Button variant="danger" onClick={deleteEndpoint} disabled={remove.isPending}>
            Delete
          </Button>
        </div>
      </div>
      {failure && (
        <div className="px-4 pb-3">
          <ErrorAlert title="That did not work" error={failure} />
        </div>
      )}
      <div className="border-t border-slate-100 px-4 py-2">
        <button
          type="button"
          aria-expanded={logOpen}
          className="text-sm font-medium text-slate-700 hover:text-slate-900"
          onClick={() => setLogOpen((open) => !open)}
        >
          {logOpen ? '▾ Hide deliveries' : '▸ Show deliveries'}
        </button>
        {logOpen && (
          <div className="mt-2 mb-2">
            <DeliveryLog orgId={orgId} endpointId={endpoint.id} />
          </div>
        )}
      </div>
    </article>
  );
}
