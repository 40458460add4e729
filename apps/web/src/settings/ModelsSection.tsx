import type { LlmSettings } from '../api/llmSettings';
import type { Organization } from '../api/types';
import { useCurrentOrg } from '../layout/OrgRoute';
import { LlmSettingsGate, ReadOnlyNote } from './LlmSettingsGate';
import { ProviderForm } from './ProviderForm';
import { ProvidersTable } from './ProvidersTable';
import { SettingsSection } from './SettingsSection';

/** Two lines at most in the forms' spare cell, so that the section still fits a 720 px window. */
function NoSecretNote() {
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1 text-xs text-amber-900">
      Without DOCAGENT_SECRET on the server, set keys as its environment variables.
    </p>
  );
}

function ModelsBody({ org, settings }: { org: Organization; settings: LlmSettings }) {
  const isAdmin = org.role === 'admin';
  return (
    <>
      <ProvidersTable providers={settings.providers} />
      {!isAdmin && <ReadOnlyNote />}
      {!isAdmin && !settings.can_store_keys && <NoSecretNote />}
      {isAdmin && (
        // Side by side and without a heading of their own (each names itself), so that every
        // provider's form is a click away and the page fits the window.
        <div className="grid items-start gap-2 md:grid-cols-2 xl:grid-cols-3">
          {settings.providers.map((provider) => (
            <ProviderForm
              key={provider.name}
              orgId={org.id}
              provider={provider}
              models={settings.available_models}
              canStoreKeys={settings.can_store_keys}
            />
          ))}
          {/* Beside the forms whose key fields it explains, in the grid's spare cell. */}
          {!settings.can_store_keys && <NoSecretNote />}
        </div>
      )}
    </>
  );
}

/** The organization's LLM providers, their keys and endpoints. */
export function ModelsSection() {
  const org = useCurrentOrg();
  return (
    <SettingsSection title="Models" description={`The providers that serve ${org.name}'s language models, and their keys.`}>
      <LlmSettingsGate orgId={org.id}>{(settings) => <ModelsBody org={org} settings={settings} />}</LlmSettingsGate>
    </SettingsSection>
  );
}
