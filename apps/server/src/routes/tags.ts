import { createTag, deleteTag, getTag, listTags, updateTag } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrgParamsSchema, PageQuerySchema } from './schemas.ts';
import { CreateTagBodySchema, TagSchema, toTag, UpdateTagBodySchema } from './tag-shapes.ts';

const TagParamsSchema = OrgParamsSchema.extend({ tag_id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

export function tagRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/tags',
    {
      schema: {
        summary: 'Create a tag; without a color it gets one from a palette',
        tags: ['tags'],
        params: OrgParamsSchema,
        body: CreateTagBodySchema,
        response: { 200: TagSchema, ...errors },
      },
    },
    async (request) => toTag(await createTag(db, orgOf(request).orgId, request.body)),
  );

  app.get(
    '/v0/orgs/:organization_id/tags',
    {
      schema: {
        summary: 'List tags by name',
        tags: ['tags'],
        params: OrgParamsSchema,
        querystring: PageQuerySchema,
        response: {
          200: z.object({ tags: z.array(TagSchema), total_count: z.number(), skip: z.number() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { skip, limit, name_search } = request.query;
      const page = await listTags(db, orgOf(request).orgId, { skip, limit, nameSearch: name_search });
      return { tags: page.tags.map(toTag), total_count: page.total, skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/tags/:tag_id',
    {
      schema: {
        summary: 'One tag',
        tags: ['tags'],
        params: TagParamsSchema,
        response: { 200: TagSchema, ...errors },
      },
    },
    async (request) => toTag(await getTag(db, orgOf(request).orgId, request.params.tag_id)),
  );

  app.put(
    '/v0/orgs/:organization_id/tags/:tag_id',
    {
      schema: {
        summary: 'Rename a tag, or change its color or description',
        tags: ['tags'],
        params: TagParamsSchema,
        body: UpdateTagBodySchema,
        response: { 200: TagSchema, ...errors },
      },
    },
    async (request) => toTag(await updateTag(db, orgOf(request).orgId, request.params.tag_id, request.body)),
  );

  app.delete(
    '/v0/orgs/:organization_id/tags/:tag_id',
    {
      schema: {
        summary: 'Delete a tag that no document or prompt uses',
        tags: ['tags'],
        params: TagParamsSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteTag(db, orgOf(request).orgId, request.params.tag_id);
      return { message: 'Tag deleted successfully' };
    },
  );
}
