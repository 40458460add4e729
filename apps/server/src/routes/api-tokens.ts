import { type ApiTokenInfo, createApiToken, listApiTokens, revokeApiToken } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, isoOrNull, OrgParamsSchema } from './schemas.ts';

const ApiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_by: z.object({ id: z.string(), email: z.string() }).nullable(),
});

const toBody = (t: ApiTokenInfo): z.infer<typeof ApiTokenSchema> => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  created_at: iso(t.createdAt),
  last_used_at: isoOrNull(t.lastUsedAt),
  revoked_at: isoOrNull(t.revokedAt),
  created_by: t.createdBy,
});

export function apiTokenRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/tokens',
    {
      schema: {
        summary: 'API tokens of the organization (never their secrets)',
        tags: ['api tokens'],
        params: OrgParamsSchema,
        response: { 200: z.object({ tokens: z.array(ApiTokenSchema) }), 404: ErrorBodySchema },
      },
    },
    async (request) => ({ tokens: (await listApiTokens(db, orgOf(request).orgId)).map(toBody) }),
  );

  app.post(
    '/v0/orgs/:organization_id/tokens',
    {
      schema: {
        summary: 'Create an API token; the secret is in this response only',
        tags: ['api tokens'],
        params: OrgParamsSchema,
        body: z.strictObject({ name: z.string().trim().min(1).max(100) }),
        response: {
          201: z.object({ id: z.string(), name: z.string(), prefix: z.string(), created_at: z.string(), token: z.string() }),
          404: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const access = orgOf(request);
      const created = await createApiToken(db, { orgId: access.orgId, name: request.body.name, createdBy: access.userId });
      return reply.code(201).send({
        id: created.id,
        name: created.name,
        prefix: created.prefix,
        created_at: iso(created.createdAt),
        token: created.token,
      });
    },
  );

  app.delete(
    '/v0/orgs/:organization_id/tokens/:token_id',
    {
      schema: {
        summary: 'Revoke an API token',
        tags: ['api tokens'],
        params: OrgParamsSchema.extend({ token_id: z.string().min(1).max(64) }),
        response: { 204: z.null(), 403: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const access = orgOf(request);
      await revokeApiToken(db, { tokenId: request.params.token_id, orgId: access.orgId, actor: access });
      return reply.code(204).send(null);
    },
  );
}
