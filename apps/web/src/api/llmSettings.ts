import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, putJson } from './client';
import { modelsQueryKey } from './models';
import { orgApiPath } from './queries';

export type KeySource = 'organization' | 'environment' | 'none';

export interface LlmProvider {
  /** e.g. "openai", "ollama". */
  name: string;
  label: string;
  configured: boolean;
  key_source: KeySource;
  /** The key's first and last characters; the key itself is never sent back. */
  api_key_preview: string | null;
  base_url: string | null;
  /** Null for providers that need no key, such as ollama. */
  api_key_env: string | null;
  base_url_env: string;
}

export interface LlmSettings {
  /** Null: the server's default. */
  default_model: string | null;
  /** Null: every available model. */
  enabled_models: string[] | null;
  /** Null: every enabled model. */
  chat_models: string[] | null;
  monthly_limit_usd: number | null;
  /** Whether uploads ask the agent to propose a schema and a prompt when they do not say. */
  auto_create_default: boolean;
  /** The auto-create agent's model; null: the default model. */
  auto_create_model: string | null;
  spent_this_month_usd: number;
  effective_default_model: string | null;
  effective_enabled_models: string[];
  available_models: string[];
  providers: LlmProvider[];
  /** False when the server has no DOCAGENT_SECRET to encrypt keys with. */
  can_store_keys: boolean;
}

export interface LlmSettingsChange {
  default_model?: string | null;
  enabled_models?: string[] | null;
  chat_models?: string[] | null;
  monthly_limit_usd?: number | null;
  auto_create_default?: boolean;
  auto_create_model?: string | null;
}

export interface ProviderChange {
  /** Null removes the organization's key. */
  api_key?: string | null;
  base_url?: string | null;
  models?: string[];
}

function settingsQueryKey(orgId: string) {
  return ['orgs', orgId, 'llm-settings'] as const;
}

export function useLlmSettingsQuery(orgId: string) {
  return useQuery({
    queryKey: settingsQueryKey(orgId),
    queryFn: () => getJson<LlmSettings>(`${orgApiPath(orgId)}/llm/settings`),
  });
}

/** Shows the settings a change answers with, and makes the model pickers read the models again. */
function useSettingsSaved(orgId: string) {
  const queryClient = useQueryClient();
  return (settings: LlmSettings) => {
    queryClient.setQueryData(settingsQueryKey(orgId), settings);
    return queryClient.invalidateQueries({ queryKey: modelsQueryKey(orgId) });
  };
}

/** Admins only: the server answers 403 to others. */
export function useUpdateLlmSettingsMutation(orgId: string) {
  const saved = useSettingsSaved(orgId);
  return useMutation({
    mutationFn: (change: LlmSettingsChange) => putJson<LlmSettings>(`${orgApiPath(orgId)}/llm/settings`, { body: change }),
    onSuccess: saved,
  });
}

/** Admins only: the server answers 403 to others. */
export function useUpdateProviderMutation(orgId: string, provider: string) {
  const saved = useSettingsSaved(orgId);
  return useMutation({
    mutationFn: (change: ProviderChange) =>
      putJson<LlmSettings>(`${orgApiPath(orgId)}/llm/providers/${encodeURIComponent(provider)}`, { body: change }),
    onSuccess: saved,
  });
}
