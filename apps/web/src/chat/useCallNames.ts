import { useNoteNameLookup } from '../api/notes';
import { usePromptChoicesQuery } from '../api/prompts';
import { usePromptRevisionQuery } from '../api/revisions';
import { useSchemaChoicesQuery } from '../api/schemas';
import { useTagsById } from '../api/tags';
import type { CallNames } from './toolSentences';

const idIn = (args: unknown, key: string): string | undefined => {
  const value = (args as Record<string, unknown> | null)?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * The names of the schema, prompt, tags and note a call's arguments name by id, from the lists the app
 * already keeps (read only when the call names one), so that a card says "schema “Invoice”".
 */
export function useCallNames(orgId: string, args: unknown, proposal?: unknown): CallNames {
  const noteId = idIn(args, 'note_id');
  const noteName = useNoteNameLookup(orgId);
  const proposedName = (proposal as { note_name?: unknown } | null | undefined)?.note_name;
  const schemaId = idIn(args, 'schema_id');
  const promptId = idIn(args, 'prompt_id');
  const promptRevid = idIn(args, 'prompt_revid');
  const schemas = useSchemaChoicesQuery(orgId, { enabled: schemaId !== undefined }).data;
  const prompts = usePromptChoicesQuery(orgId, { enabled: promptId !== undefined }).data;
  const revision = usePromptRevisionQuery(orgId, promptRevid).data;
  const tags = useTagsById(orgId).data;
  return {
    schema: schemas?.find((schema) => schema.schema_id === schemaId)?.name,
    prompt: promptRevid !== undefined ? revision?.name : prompts?.find((prompt) => prompt.prompt_id === promptId)?.name,
    tag: (id) => tags?.get(id)?.name,
    note: typeof proposedName === 'string' ? proposedName : noteId === undefined ? undefined : noteName(noteId),
  };
}
