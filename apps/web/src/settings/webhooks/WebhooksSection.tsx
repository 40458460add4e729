import { useState } from 'react';
import { useWebhooksQuery } from '../../api/webhooks';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { AdminOnly } from '../AdminOnly';
import { SecretNotice } from '../SecretNotice';
import { SettingsSection } from '../SettingsSection';
import { CreateWebhookForm } from './CreateWebhookForm';
import { WebhookEndpointCard } from './WebhookEndpointCard';

/** A secret the server just made (a new endpoint's, or a rolled one), shown until dismissed. */
export interface ShownSecret {
  title: string;
  secret: string;
}

function WebhookList({ orgId, onSecret }: { orgId: string; onSecret: (shown: ShownSecret) => void }) {
  const webhooks = useWebhooksQuery(orgId);
  if (webhooks.isPending) return <LoadingState label="Loading webhooks…" />;
  if (webhooks.isError) {
    return <ErrorAlert title="Could not load the webhooks" error={webhooks.error} onRetry={() => void webhooks.refetch()} />;
  }
  if (webhooks.data.length === 0) {
    return (
      <EmptyState compact title="No webhook endpoints yet" description="Add one above to have events pushed to your systems." />
    );
  }
  return (
    <ul className="space-y-3" aria-label="Webhook endpoints">
      {webhooks.data.map((endpoint) => (
        <li key={endpoint.id}>
          <WebhookEndpointCard orgId={orgId} endpoint={endpoint} onSecret={onSecret} />
        </li>
      ))}
    </ul>
  );
}

export function WebhooksSection() {
  const org = useCurrentOrg();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  return (
    <AdminOnly what="the webhooks">
      <SettingsSection
        title="Webhooks"
        description={`Push ${org.name}'s events (uploads, prompt results, agent turns) to your own systems as signed HTTP requests.`}
      >
        <CreateWebhookForm orgId={org.id} onCreated={setShown} />
        {shown && (
          <SecretNotice title={shown.title} secret={shown.secret} testId="webhook-secret" onDismiss={() => setShown(null)}>
            Use it to verify the <code>docagent-webhook-signature</code> header of each delivery. Copy it now: it will not be
            shown again.
          </SecretNotice>
        )}
        <WebhookList orgId={org.id} onSecret={setShown} />
      </SettingsSection>
    </AdminOnly>
  );
}
