import type { WaitingExtractionsScheduler } from '../extraction/waiting-for-model.ts';
import type { OrgAccess } from '../identity/access.ts';
import { type OrgLlmSettings, type ProviderChange, setOrgProvider, updateOrgLlmSettings } from './llm-settings.ts';
import { PROVIDER_NAMES, PROVIDERS, type ProviderName } from './model-catalog.ts';
import type { ModelRegistry } from './model-registry.ts';
import { spentThisMonth } from './usage.ts';

export interface ProviderOverview {
  name: ProviderName;
  label: string;
  configured: boolean;
  keySource: 'organization' | 'environment' | 'none';
  /** The start and end of the organization's stored key; shown to its admins only. */
  apiKeyPreview: string | undefined;
  baseUrl: string | undefined;
  apiKeyEnv: string | undefined;
  baseUrlEnv: string;
}

/** Everything the model settings page shows: providers, the models they give, choices and spend. */
export interface LlmOverview extends OrgLlmSettings {
  providers: ProviderOverview[];
  /** Every model of the configured providers. */
  availableModels: string[];
  enabledModelsResolved: string[];
  defaultModelResolved: string | undefined;
  spentThisMonthUsd: number;
  /** Whether organizations' keys can be stored (a server secret is set). */
  canStoreKeys: boolean;
}

/**
 * The settings as `access` may see them: members who are not admins can neither change the keys nor
 * need to tell them apart, so they get no key preview.
 */
export async function describeLlmSettings(registry: ModelRegistry, access: OrgAccess): Promise<LlmOverview> {
  const { orgId } = access;
  const [snapshot, spent] = await Promise.all([registry.snapshot(orgId), spentThisMonth(registry.db, orgId)]);
  const configured = snapshot.providers;
  const showsKeys = access.role === 'admin';
  return {
    ...snapshot.settings,
    providers: PROVIDER_NAMES.map((name) => {
      const found = configured.find((p) => p.name === name);
      return {
        name,
        label: PROVIDERS[name].label,
        configured: found !== undefined,
        keySource: found?.keySource ?? 'none',
        apiKeyPreview: showsKeys ? found?.apiKeyPreview : undefined,
        baseUrl: found?.baseUrl,
        apiKeyEnv: PROVIDERS[name].apiKeyEnv,
        baseUrlEnv: PROVIDERS[name].baseUrlEnv,
      };
    }),
    availableModels: snapshot.available,
    enabledModelsResolved: snapshot.enabled,
    defaultModelResolved: snapshot.defaultModel,
    spentThisMonthUsd: spent,
    canStoreKeys: registry.options.secretBox !== undefined,
  };
}

export async function changeLlmSettings(registry: ModelRegistry, access: OrgAccess, change: Partial<OrgLlmSettings>) {
  await updateOrgLlmSettings(registry.db, access, change);
  return describeLlmSettings(registry, access);
}

/**
 * Changes a provider's settings. When the organization has a provider afterwards, the documents
 * whose prompts waited for one are handed to their jobs (the web app promises they run "once a
 * model is available").
 */
export async function changeLlmProvider(
  registry: ModelRegistry,
  waiting: WaitingExtractionsScheduler,
  access: OrgAccess,
  provider: string,
  change: ProviderChange,
) {
  await setOrgProvider(registry.db, registry.options.secretBox, access, provider, change);
  const overview = await describeLlmSettings(registry, access);
  if (overview.providers.some((p) => p.configured)) await waiting.scheduleWaitingExtractions(access.orgId);
  return overview;
}
