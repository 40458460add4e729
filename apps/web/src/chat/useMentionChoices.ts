import { usePromptChoicesQuery } from '../api/prompts';
import { useSchemaChoicesQuery } from '../api/schemas';
import { useTagsQuery } from '../api/tags';
import type { MentionChoice } from './mentions';

/**
 * The schemas, prompts and tags the chat input can mention: the lists the pickers use, read once
 * the person starts a mention; whatever refreshes those (a turn whose tools changed them
 * included) refreshes these.
 */
export function useMentionChoices(orgId: string, enabled: boolean): { choices: MentionChoice[]; loading: boolean } {
  const schemas = useSchemaChoicesQuery(orgId, { enabled });
  const prompts = usePromptChoicesQuery(orgId, { enabled });
  const tags = useTagsQuery(orgId, { enabled });
  const choices: MentionChoice[] = [
    ...(schemas.data ?? []).map((schema) => ({
      type: 'schema' as const,
      id: schema.schema_revid,
      label: schema.name,
      detail: `schema v${schema.schema_version}`,
    })),
    ...(prompts.data ?? []).map((prompt) => ({
      type: 'prompt' as const,
      id: prompt.prompt_revid,
      label: prompt.name,
      detail: `prompt v${prompt.prompt_version}`,
    })),
    ...(tags.data?.tags ?? []).map((tag) => ({ type: 'tag' as const, id: tag.id, label: tag.name, detail: 'tag' })),
  ];
  return { choices, loading: schemas.isLoading || prompts.isLoading || tags.isLoading };
}
