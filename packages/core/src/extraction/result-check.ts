import type { Db } from '../db/database.ts';
import type { PromptRevision } from '../prompts/prompts.ts';
import { type ResponseFormat, type SchemaProblem, validateAgainstSchema } from '../schemas/schema-validation.ts';
import { findSchemaVersion } from '../schemas/schemas.ts';

/** A stored result larger than this is refused: it would be a model gone astray, not data. */
export const MAX_RESULT_BYTES = 1_000_000;

export type ValueCheck = { valid: true; value: Record<string, unknown> } | { valid: false; errors: SchemaProblem[] };

/** The schema version a prompt revision's results must satisfy; undefined for a free-form prompt. */
export async function schemaOfPrompt(db: Db, orgId: string, prompt: PromptRevision): Promise<ResponseFormat | undefined> {
  if (!prompt.schemaId) return undefined;
  const revision = await findSchemaVersion(db, orgId, prompt.schemaId, prompt.schemaVersion ?? undefined);
  return revision.responseFormat as ResponseFormat;
}

/** An extraction value is a JSON object within size, satisfying the schema when there is one. */
export function checkValue(schema: ResponseFormat | undefined, value: unknown): ValueCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { valid: false, errors: [{ path: '', message: 'must be a JSON object' }] };
  }
  const size = Buffer.byteLength(JSON.stringify(value));
  if (size > MAX_RESULT_BYTES) {
    return { valid: false, errors: [{ path: '', message: `is ${size} bytes; at most ${MAX_RESULT_BYTES} are stored` }] };
  }
  if (schema) {
    const result = validateAgainstSchema(schema, value);
    if (!result.valid) return { valid: false, errors: result.errors };
  }
  return { valid: true, value: value as Record<string, unknown> };
}

export async function checkExtractedValue(db: Db, orgId: string, prompt: PromptRevision, value: unknown): Promise<ValueCheck> {
  return checkValue(await schemaOfPrompt(db, orgId, prompt), value);
}
