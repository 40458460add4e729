import { getOrganization, listAccessibleOrganizations } from '@docagent/core';
import { z } from 'zod';
import { orgOf, principalOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrganizationSchema, OrgParamsSchema } from './schemas.ts';

export function organizationRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs',
    {
      schema: {
        summary: 'Organizations the caller can act in',
        tags: ['organizations'],
        response: { 200: z.object({ organizations: z.array(OrganizationSchema) }) },
      },
    },
    async (request) => ({ organizations: await listAccessibleOrganizations(db, principalOf(request)) }),
  );

  app.get(
    '/v0/orgs/:organization_id',
    {
      schema: {
        summary: 'One organization',
        tags: ['organizations'],
        params: OrgParamsSchema,
        response: { 200: OrganizationSchema, 404: ErrorBodySchema },
      },
    },
    async (request) => {
      const access = orgOf(request);
      const org = await getOrganization(db, access.orgId);
      return { id: org.id, name: org.name, role: access.role };
    },
  );
}
