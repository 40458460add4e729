import {
  createSchema,
  deleteSchema,
  getSchemaRevision,
  listSchemas,
  listSchemaVersions,
  type SchemaRevision,
  updateSchema,
  validateDataAgainstSchema,
  validateResponseFormat,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema, PageQuerySchema } from './schemas.ts';

/** Extraction schemas (DocRouter's /schemas): versioned JSON Schemas in the response_format envelope. */

const SchemaBodySchema = z.object({
  schema_revid: z.string(),
  schema_id: z.string(),
  schema_version: z.number(),
  name: z.string(),
  response_format: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  created_by: z.string(),
});

const toBody = (s: SchemaRevision): z.infer<typeof SchemaBodySchema> => ({
  schema_revid: s.schemaRevid,
  schema_id: s.schemaId,
  schema_version: s.schemaVersion,
  name: s.name,
  response_format: s.responseFormat,
  created_at: iso(s.createdAt),
  created_by: s.createdBy,
});

const ListSchema = z.object({ schemas: z.array(SchemaBodySchema), total_count: z.number(), skip: z.number() });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const RevidParams = OrgParamsSchema.extend({ schema_revid: z.string().min(1).max(64) });
const IdParams = OrgParamsSchema.extend({ schema_id: z.string().min(1).max(64) });

export function jsonSchemaRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/schemas',
    {
      schema: {
        summary: 'Create a schema, or a new version of the schema with that name',
        tags: ['schemas'],
        params: OrgParamsSchema,
        body: z.strictObject({ name: z.string(), response_format: z.unknown() }),
        response: { 200: SchemaBodySchema, ...errors },
      },
    },
    async (request) =>
      toBody(await createSchema(db, orgOf(request), { name: request.body.name, responseFormat: request.body.response_format })),
  );

  // Not in DocRouter: lets an editor show every problem of a draft while it is typed, before saving.
  app.post(
    '/v0/orgs/:organization_id/schemas/check',
    {
      schema: {
        summary: 'Check a response_format without saving it',
        tags: ['schemas'],
        params: OrgParamsSchema,
        body: z.strictObject({ response_format: z.unknown() }),
        response: {
          200: z.object({ valid: z.boolean(), errors: z.array(z.object({ path: z.string(), message: z.string() })) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const result = validateResponseFormat(request.body.response_format);
      return result.valid ? { valid: true, errors: [] } : { valid: false, errors: result.errors };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/schemas',
    {
      schema: {
        summary: 'The latest version of each schema',
        tags: ['schemas'],
        params: OrgParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: ListSchema, ...errors },
      },
    },
    async (request) => {
      const { skip, limit, name_search } = request.query;
      const page = await listSchemas(db, orgOf(request).orgId, { skip, limit, nameSearch: name_search });
      return { schemas: page.schemas.map(toBody), total_count: page.total, skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/schemas/:schema_revid',
    {
      schema: {
        summary: 'One schema revision',
        tags: ['schemas'],
        params: RevidParams,
        response: { 200: SchemaBodySchema, ...errors },
      },
    },
    async (request) => toBody(await getSchemaRevision(db, orgOf(request).orgId, request.params.schema_revid)),
  );

  app.put(
    '/v0/orgs/:organization_id/schemas/:schema_id',
    {
      schema: {
        summary: 'Change a schema: a new version (unchanged input returns the current one)',
        tags: ['schemas'],
        params: IdParams,
        body: z.strictObject({ name: z.string().optional(), response_format: z.unknown().optional() }),
        response: { 200: SchemaBodySchema, ...errors },
      },
    },
    async (request) => {
      const { name, response_format } = request.body;
      const { revision } = await updateSchema(db, orgOf(request), request.params.schema_id, {
        name,
        responseFormat: response_format,
      });
      return toBody(revision);
    },
  );

  app.delete(
    '/v0/orgs/:organization_id/schemas/:schema_id',
    {
      schema: {
        summary: 'Delete a schema and its versions (refused while a prompt uses it)',
        tags: ['schemas'],
        params: IdParams,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteSchema(db, orgOf(request).orgId, request.params.schema_id);
      return { message: 'Schema deleted successfully' };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/schemas/:schema_id/versions',
    {
      schema: {
        summary: 'Every version of a schema, newest first',
        tags: ['schemas'],
        params: IdParams,
        response: { 200: ListSchema, ...errors },
      },
    },
    async (request) => {
      const versions = await listSchemaVersions(db, orgOf(request).orgId, request.params.schema_id);
      return { schemas: versions.map(toBody), total_count: versions.length, skip: 0 };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/schemas/:schema_revid/validate',
    {
      schema: {
        summary: 'Check data against a schema revision',
        tags: ['schemas'],
        params: RevidParams,
        body: z.strictObject({ data: z.unknown() }),
        // DocRouter's clients read errors as strings; each names its path.
        response: { 200: z.object({ valid: z.boolean(), errors: z.array(z.string()) }), ...errors },
      },
    },
    async (request) => {
      const result = await validateDataAgainstSchema(db, orgOf(request).orgId, request.params.schema_revid, request.body.data);
      return { valid: result.valid, errors: result.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)) };
    },
  );
}
