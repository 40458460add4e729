import { usePromptRevisionQuery, useSchemaVersionsOnceQuery } from '../api/revisions';

export type ResultSchema =
  | { status: 'loading' }
  /** `schema` is the root JSON Schema the result is checked against; undefined when the prompt has none or it cannot be read. */
  | { status: 'settled'; schema: unknown };

/**
 * The JSON Schema of the prompt revision that produced a result, which says how each value is
 * edited. A prompt or schema that cannot be read (deleted since) leaves the form to go by the values.
 */
export function useResultSchema(orgId: string, promptRevid: string | undefined): ResultSchema {
  const prompt = usePromptRevisionQuery(orgId, promptRevid);
  const schemaId = prompt.data?.schema_id ?? null;
  const versions = useSchemaVersionsOnceQuery(orgId, schemaId);
  if (promptRevid === undefined || prompt.isPending || (schemaId !== null && versions.isPending)) return { status: 'loading' };
  const wanted = prompt.data?.schema_version ?? null;
  // A prompt saved without a version uses the schema's latest.
  const version = wanted === null ? versions.data?.[0] : versions.data?.find((candidate) => candidate.schema_version === wanted);
  return { status: 'settled', schema: version?.response_format.json_schema.schema };
}
