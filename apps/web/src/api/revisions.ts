import { useQuery } from '@tanstack/react-query';
import { getJson } from './client';
import type { Prompt } from './prompts';
import { orgApiPath } from './queries';
import type { Schema, SchemaList } from './schemas';

/**
 * One schema or prompt revision by its revid. A revision never changes, and a deleted one never
 * comes back, so it is read once and kept under a root of its own: no refresh of the
 * organization's lists (after a turn, a review, a save) reads it again, which for a revision
 * deleted meanwhile (a rejected proposal) would only fail.
 */
function useRevisionQuery<T>(orgId: string, kind: 'schemas' | 'prompts', revid: string | undefined) {
  return useQuery({
    queryKey: ['revisions', orgId, kind, revid],
    queryFn: () => getJson<T>(`${orgApiPath(orgId)}/${kind}/${encodeURIComponent(revid ?? '')}`),
    enabled: revid !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export const useSchemaRevisionQuery = (orgId: string, revid: string | undefined) =>
  useRevisionQuery<Schema>(orgId, 'schemas', revid);

export const usePromptRevisionQuery = (orgId: string, revid: string | undefined) =>
  useRevisionQuery<Prompt>(orgId, 'prompts', revid);

/**
 * A schema's versions, read once like a revision: a result's form needs the version its prompt
 * names, which never changes, and a refresh after the schema was deleted (a rejected proposal)
 * would only fail.
 */
export function useSchemaVersionsOnceQuery(orgId: string, schemaId: string | null) {
  return useQuery({
    queryKey: ['revisions', orgId, 'schema-versions', schemaId],
    queryFn: () => getJson<SchemaList>(`${orgApiPath(orgId)}/schemas/${encodeURIComponent(schemaId ?? '')}/versions`),
    select: ({ schemas }) => schemas,
    enabled: schemaId !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
