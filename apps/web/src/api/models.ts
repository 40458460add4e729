import { useQuery } from '@tanstack/react-query';
import { getJson } from './client';
import { orgApiPath } from './queries';

export interface ModelList {
  /** Ids like "openai:gpt-4.1-mini"; empty when no provider is configured. */
  models: string[];
  default_model: string | null;
  /** What to set up on the server; null when a model is available. */
  configure_hint: string | null;
}

/** Models change only when the server's configuration does. */
const MODELS_STALE_MS = 5 * 60_000;

export function modelsQueryKey(orgId: string) {
  return ['orgs', orgId, 'models'] as const;
}

function modelsQueryOptions(orgId: string) {
  return {
    queryKey: modelsQueryKey(orgId),
    queryFn: () => getJson<ModelList>(`${orgApiPath(orgId)}/llm/models?chat_only=false`),
    staleTime: MODELS_STALE_MS,
  };
}

export function useModelsQuery(orgId: string) {
  return useQuery({ ...modelsQueryOptions(orgId), select: ({ models }: ModelList) => models });
}

/** The models with the organization's default and, when none is available, what to configure. */
export function useModelOfferQuery(orgId: string) {
  return useQuery(modelsQueryOptions(orgId));
}
