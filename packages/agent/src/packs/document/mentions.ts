import {
  type Db,
  findSchemaVersion,
  getDocument,
  getSchemaRevision,
  getTag,
  isDomainError,
  resolvePromptRevision,
  type SchemaRevision,
} from '@docagent/core';
import type { Mention } from '../../engine/pack.ts';

export const DOCUMENT_MENTION_KINDS = ['schema', 'prompt', 'tag', 'document'];

/** A schema by revision id, or by schema id meaning its latest version. */
async function schemaOf(db: Db, orgId: string, id: string): Promise<SchemaRevision> {
  try {
    return await getSchemaRevision(db, orgId, id);
  } catch (error) {
    if (isDomainError(error) && error.kind === 'not_found') return findSchemaVersion(db, orgId, id);
    throw error;
  }
}

/**
 * What a mentioned resource is, in full, for the system message: the schema JSON, the prompt
 * with its schema, model and tags, the tag, the document. An id of another organization is
 * "not found", before the turn starts.
 */
export async function resolveDocumentMention(db: Db, orgId: string, mention: Mention): Promise<string> {
  switch (mention.type) {
    case 'schema': {
      const s = await schemaOf(db, orgId, mention.id);
      return `Schema "${s.name}" (schema_id ${s.schemaId}, schema_revid ${s.schemaRevid}, version ${s.schemaVersion}): ${JSON.stringify(s.responseFormat)}`;
    }
    case 'prompt': {
      const p = await resolvePromptRevision(db, orgId, mention.id);
      return `Prompt "${p.name}" (prompt_id ${p.promptId}, prompt_revid ${p.promptRevid}, version ${p.promptVersion}, schema_id ${p.schemaId ?? 'none'} version ${p.schemaVersion ?? '-'}, model ${p.model ?? 'organization default'}, tag_ids ${JSON.stringify(p.tagIds)}): ${p.content}`;
    }
    case 'tag': {
      const t = await getTag(db, orgId, mention.id);
      return `Tag "${t.name}" (tag_id ${t.id}, color ${t.color}): ${t.description || 'no description'}`;
    }
    default: {
      const d = await getDocument(db, orgId, mention.id);
      return `Document "${d.name}" (document_id ${d.id}, ${d.kind}, state ${d.state}, tag_ids ${JSON.stringify(d.tagIds)})`;
    }
  }
}
