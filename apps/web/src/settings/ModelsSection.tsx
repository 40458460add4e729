import { useLlmSettingsQuery } from '../api/llmSettings';
import type { Organization } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { AutoCreateSettingsForm } from './AutoCreateSettingsForm';
import { ModelChoicesForm } from './ModelChoicesForm';
import { ProviderForm } from './ProviderForm';
import { ProvidersTable } from './ProvidersTable';

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

function ModelsBody({ org }: { org: Organization }) {
  const settingsQuery = useLlmSettingsQuery(org.id);
  const isAdmin = org.role === 'admin';

  if (settingsQuery.isPending) {
    return <LoadingState label="Loading the model settings…" />;
  }
  if (settingsQuery.isError) {
    return (
      <ErrorAlert
        title="Could not load the model settings"
        error={settingsQuery.error}
        onRetry={() => void settingsQuery.refetch()}
      />
    );
  }
  const settings = settingsQuery.data;
  return (
    <>
      <p className="text-sm text-slate-800">
        Spent this month: <strong>{usd.format(settings.spent_this_month_usd)}</strong>
        {settings.monthly_limit_usd !== null && ` of ${usd.format(settings.monthly_limit_usd)}`}
      </p>
      <ProvidersTable providers={settings.providers} />
      {!settings.can_store_keys && (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          API keys must be set as environment variables on the server: it cannot store keys because DOCAGENT_SECRET is missing.
        </p>
      )}
      {!isAdmin && <p className="text-sm text-slate-600">Only the organization's admins can change these settings.</p>}
      {isAdmin && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-900">Provider keys and endpoints</h3>
          {settings.providers.map((provider) => (
            <ProviderForm
              key={provider.name}
              orgId={org.id}
              provider={provider}
              models={settings.available_models}
              canStoreKeys={settings.can_store_keys}
            />
          ))}
        </div>
      )}
      <ModelChoicesForm
        // Remounted when the available models change, so that the checklists list them.
        key={settings.available_models.join(',')}
        orgId={org.id}
        settings={settings}
        readOnly={!isAdmin}
      />
      <AutoCreateSettingsForm orgId={org.id} settings={settings} readOnly={!isAdmin} />
    </>
  );
}

/** The organization's LLM providers, model choices and spend. */
export function ModelsSection({ org }: { org: Organization }) {
  return (
    <section aria-labelledby="models-heading" className="rounded-lg border border-slate-200 bg-white">
      <div className="border-b border-slate-200 px-6 py-4">
        <h2 id="models-heading" className="text-base font-semibold text-slate-900">
          Models
        </h2>
        <p className="mt-1 text-sm text-slate-600">The language models that run {org.name}'s prompts, and what they cost.</p>
      </div>
      <div className="space-y-6 px-6 py-5">
        <ModelsBody org={org} />
      </div>
    </section>
  );
}
