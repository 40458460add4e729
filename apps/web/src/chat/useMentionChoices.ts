import { useQuery } from '@tanstack/react-query';
import { getJson } from '../api/client';
import type { PromptList } from '../api/prompts';
import { orgApiPath } from '../api/queries';
import type { SchemaList } from '../api/schemas';
import type { TagList } from '../api/tags';
import type { MentionChoice } from './mentions';

const LIMIT = 100;

/**
 * The schemas, prompts and tags the chat input can mention. The keys sit under the org's
 * schemas, prompts and tags, so that whatever refreshes those (a turn whose tools changed them
 * included) refreshes these.
 */
export function useMentionChoices(orgId: string, enabled: boolean): { choices: MentionChoice[]; loading: boolean } {
  const base = orgApiPath(orgId);
  const schemas = useQuery({
    queryKey: ['orgs', orgId, 'schemas', 'mentions'],
    queryFn: () => getJson<SchemaList>(`${base}/schemas?limit=${LIMIT}`),
    enabled,
  });
  const prompts = useQuery({
    queryKey: ['orgs', orgId, 'prompts', 'mentions'],
    queryFn: () => getJson<PromptList>(`${base}/prompts?limit=${LIMIT}`),
    enabled,
  });
  const tags = useQuery({
    queryKey: ['orgs', orgId, 'tags', 'mentions'],
    queryFn: () => getJson<TagList>(`${base}/tags?limit=${LIMIT}`),
    enabled,
  });
  const choices: MentionChoice[] = [
    ...(schemas.data?.schemas ?? []).map((schema) => ({
      type: 'schema' as const,
      id: schema.schema_revid,
      label: schema.name,
      detail: `schema v${schema.schema_version}`,
    })),
    ...(prompts.data?.prompts ?? []).map((prompt) => ({
      type: 'prompt' as const,
      id: prompt.prompt_revid,
      label: prompt.name,
      detail: `prompt v${prompt.prompt_version}`,
    })),
    ...(tags.data?.tags ?? []).map((tag) => ({ type: 'tag' as const, id: tag.id, label: tag.name, detail: 'tag' })),
  ];
  return { choices, loading: schemas.isLoading || prompts.isLoading || tags.isLoading };
}
