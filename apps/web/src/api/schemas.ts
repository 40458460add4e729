import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, type InputProblem, postJson, putJson } from './client';
import { type NameListParams, nameListSearch, pickerLimit } from './pagedList';
import { orgApiPath } from './queries';

/** The DocRouter response_format envelope around a JSON Schema. */
export interface ResponseFormat {
  type: 'json_schema';
  json_schema: {
    name: string;
    schema: { type: 'object'; properties: Record<string, unknown>; required: string[]; additionalProperties: false };
    strict: true;
  };
}

/** One version of a schema. */
export interface Schema {
  schema_revid: string;
  schema_id: string;
  schema_version: number;
  name: string;
  response_format: ResponseFormat;
  created_at: string;
  created_by: string;
}

export interface SchemaList {
  schemas: Schema[];
  total_count: number;
  skip: number;
}

/** The body of a create or an edit; the server checks the response_format, which may be any JSON while typed. */
export interface SchemaFields {
  name: string;
  response_format: unknown;
}

export interface SchemaCheck {
  valid: boolean;
  errors: InputProblem[];
}

export function schemasQueryKey(orgId: string) {
  return ['orgs', orgId, 'schemas'] as const;
}

function schemasPath(orgId: string): string {
  return `${orgApiPath(orgId)}/schemas`;
}

function schemaPath(orgId: string, schemaId: string): string {
  return `${schemasPath(orgId)}/${encodeURIComponent(schemaId)}`;
}

/** How many data fields the schema's top-level object has. */
export function fieldCount(schema: Schema): number {
  const properties = schema.response_format.json_schema?.schema?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).length : 0;
}

/** One page of the latest version of each schema. */
export function useSchemasQuery(orgId: string, params: NameListParams) {
  return useQuery({
    queryKey: [...schemasQueryKey(orgId), 'page', params],
    queryFn: () => getJson<SchemaList>(`${schemasPath(orgId)}?${nameListSearch(params)}`),
    placeholderData: (previous) => previous,
  });
}

/** The latest version of every schema (the first 100 by name), for the prompt editor's picker and lists. */
export function useSchemaChoicesQuery(orgId: string, { enabled = true } = {}) {
  return useQuery({
    queryKey: [...schemasQueryKey(orgId), 'choices'],
    queryFn: () => getJson<SchemaList>(`${schemasPath(orgId)}?limit=${pickerLimit}`),
    select: ({ schemas }) => schemas,
    enabled,
  });
}

/** Every version of a schema, newest first. */
export function useSchemaVersionsQuery(orgId: string, schemaId: string | null) {
  return useQuery({
    queryKey: [...schemasQueryKey(orgId), 'versions', schemaId],
    queryFn: () => getJson<SchemaList>(`${schemaPath(orgId, schemaId ?? '')}/versions`),
    select: ({ schemas }) => schemas,
    enabled: schemaId !== null,
  });
}

/** Asks the server what is wrong with a draft response_format, without saving it. */
export function checkResponseFormat(orgId: string, responseFormat: unknown): Promise<SchemaCheck> {
  return postJson<SchemaCheck>(`${schemasPath(orgId)}/check`, { body: { response_format: responseFormat } });
}

/** Creates a schema when schemaId is null, else saves a new version of it (unchanged input returns the current one). */
export function useSaveSchemaMutation(orgId: string, schemaId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: SchemaFields) =>
      schemaId === null
        ? postJson<Schema>(schemasPath(orgId), { body: fields })
        : putJson<Schema>(schemaPath(orgId, schemaId), { body: fields }),
    // Returned so that saving stays pending until the lists and versions show the result.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schemasQueryKey(orgId) }),
  });
}

/** Whether a cached query is the versions of the given schema. */
const isVersionsOf =
  (schemaId: string) =>
  ({ queryKey }: { queryKey: readonly unknown[] }) =>
    queryKey[3] === 'versions' && queryKey[4] === schemaId;

/** Refused with a 409 naming the prompts while prompts use the schema. */
export function useDeleteSchemaMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schemaId: string) => deleteNoContent(schemaPath(orgId, schemaId)),
    // The deleted schema's versions are gone: asking for them again, while its page is still open, would only fail.
    onSuccess: (_, schemaId) =>
      queryClient.invalidateQueries({ queryKey: schemasQueryKey(orgId), predicate: (query) => !isVersionsOf(schemaId)(query) }),
  });
}
