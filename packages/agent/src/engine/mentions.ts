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

/** Something the person pointed at with @ in their message. */
export interface Mention {
  type: 'schema' | 'prompt' | 'tag' | 'document';
  id: string;
}

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
 * What the mentioned resources are, in full, for the system message: the schema JSON, the
 * prompt with its schema, model and tags, the tag, the document. An id of another organization
 * is "not found", before the turn starts.
 */
export async function resolveMentions(db: Db, orgId: string, mentions: Mention[]): Promise<string> {
  const parts: string[] = [];
  for (const mention of mentions) {
    switch (mention.type) {
      case 'schema': {
        const s = await schemaOf(db, orgId, mention.id);
        parts.push(
          `Schema "${s.name}" (schema_id ${s.schemaId}, schema_revid ${s.schemaRevid}, version ${s.schemaVersion}): ${JSON.stringify(s.responseFormat)}`,
        );
        break;
      }
      case 'prompt': {
        const p = await resolvePromptRevision(db, orgId, mention.id);
        parts.push(
          `Prompt "${p.name}" (prompt_id ${p.promptId}, prompt_revid ${p.promptRevid}, version ${p.promptVersion}, schema_id ${p.schemaId ?? 'none'} version ${p.schemaVersion ?? '-'}, model ${p.model ?? 'organization default'}, tag_ids ${JSON.stringify(p.tagIds)}): ${p.content}`,
        );
        break;
      }
      case 'tag': {
        const t = await getTag(db, orgId, mention.id);
        parts.push(`Tag "${t.name}" (tag_id ${t.id}, color ${t.color}): ${t.description || 'no description'}`);
        break;
      }
      case 'document': {
        const d = await getDocument(db, orgId, mention.id);
        parts.push(
          `Document "${d.name}" (document_id ${d.id}, ${d.kind}, state ${d.state}, tag_ids ${JSON.stringify(d.tagIds)})`,
        );
        break;
      }
    }
  }
  return parts.length === 0 ? '' : ['The person mentioned:', ...parts.map((p) => `- ${p}`)].join('\n');
}
