import {
  createPrompt,
  deletePrompt,
  type ListedPrompt,
  listPrompts,
  listPromptVersions,
  type PromptFields,
  type PromptRevision,
  resolvePromptRevision,
  updatePrompt,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema, PageQuerySchema } from './schemas.ts';
import { parseTagIds } from './upload-bodies.ts';

/** Extraction prompts (DocRouter's /prompts): versioned instructions tied to a schema version, a model and tags. */

const PromptBodySchema = z.object({
  prompt_revid: z.string(),
  prompt_id: z.string(),
  prompt_version: z.number(),
  name: z.string(),
  content: z.string(),
  schema_id: z.string().nullable(),
  schema_version: z.number().nullable(),
  tag_ids: z.array(z.string()),
  model: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
});

const toBody = (p: PromptRevision): z.infer<typeof PromptBodySchema> => ({
  prompt_revid: p.promptRevid,
  prompt_id: p.promptId,
  prompt_version: p.promptVersion,
  name: p.name,
  content: p.content,
  schema_id: p.schemaId,
  schema_version: p.schemaVersion,
  tag_ids: p.tagIds,
  model: p.model,
  created_at: iso(p.createdAt),
  created_by: p.createdBy,
});

const fields = {
  name: z.string(),
  content: z.string(),
  schema_id: z.string().max(64).nullable().optional(),
  schema_version: z.number().int().min(1).nullable().optional(),
  tag_ids: z.array(z.string()).max(100).optional(),
  model: z.string().nullable().optional(),
};
/** The request's fields in the service's names; what is omitted stays undefined (kept on update). */
const toFields = (b: {
  name?: string;
  content?: string;
  schema_id?: string | null;
  schema_version?: number | null;
  tag_ids?: string[];
  model?: string | null;
}): Partial<PromptFields> => ({
  name: b.name,
  content: b.content,
  schemaId: b.schema_id,
  schemaVersion: b.schema_version,
  tagIds: b.tag_ids,
  model: b.model,
});

const ListedPromptSchema = PromptBodySchema.extend({
  auto_create_pending_review: z
    .boolean()
    .describe('An auto-create proposal awaiting review ("auto-created, pending review"): it runs on no other document yet'),
  auto_create_document_id: z.string().nullable().describe('The document whose auto-create proposed it, while pending'),
});
const toListed = (p: ListedPrompt): z.infer<typeof ListedPromptSchema> => ({
  ...toBody(p),
  auto_create_pending_review: p.autoCreatePendingDocumentId !== null,
  auto_create_document_id: p.autoCreatePendingDocumentId,
});
const ListSchema = z.object({ prompts: z.array(ListedPromptSchema), total_count: z.number(), skip: z.number() });
const VersionsSchema = z.object({ prompts: z.array(PromptBodySchema), total_count: z.number(), skip: z.number() });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const RevidParams = OrgParamsSchema.extend({ prompt_revid: z.string().min(1).max(64) });
const IdParams = OrgParamsSchema.extend({ prompt_id: z.string().min(1).max(64) });

export function promptRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/prompts',
    {
      schema: {
        summary: 'Create a prompt, or a new version of the prompt with that name (schema version: latest when omitted)',
        tags: ['prompts'],
        params: OrgParamsSchema,
        body: z.strictObject(fields),
        response: { 200: PromptBodySchema, ...errors },
      },
    },
    async (request) => {
      const { name, content } = request.body;
      return toBody(await createPrompt(db, orgOf(request), { ...toFields(request.body), name, content }));
    },
  );

  app.get(
    '/v0/orgs/:organization_id/prompts',
    {
      schema: {
        summary: 'The latest version of each prompt',
        tags: ['prompts'],
        params: OrgParamsSchema,
        querystring: PageQuerySchema.extend({
          tag_ids: z.string().optional().describe('Comma-separated tag ids; prompts having all of them'),
          document_id: z.string().max(64).optional().describe('Only the prompts that run on this document'),
        }),
        response: { 200: ListSchema, ...errors },
      },
    },
    async (request) => {
      const { skip, limit, name_search, tag_ids, document_id } = request.query;
      const page = await listPrompts(db, orgOf(request).orgId, {
        skip,
        limit,
        nameSearch: name_search,
        tagIds: parseTagIds(tag_ids),
        documentId: document_id,
      });
      return { prompts: page.prompts.map(toListed), total_count: page.total, skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_revid',
    {
      schema: {
        summary: 'One prompt revision',
        tags: ['prompts'],
        params: RevidParams,
        response: { 200: PromptBodySchema, ...errors },
      },
    },
    async (request) => toBody(await resolvePromptRevision(db, orgOf(request).orgId, request.params.prompt_revid)),
  );

  app.put(
    '/v0/orgs/:organization_id/prompts/:prompt_id',
    {
      schema: {
        summary: 'Change a prompt: a new version (unchanged input returns the current one)',
        tags: ['prompts'],
        params: IdParams,
        body: z.strictObject({ ...fields, name: fields.name.optional(), content: fields.content.optional() }),
        response: { 200: PromptBodySchema, ...errors },
      },
    },
    async (request) => {
      const { revision } = await updatePrompt(db, orgOf(request), request.params.prompt_id, toFields(request.body));
      return toBody(revision);
    },
  );

  app.delete(
    '/v0/orgs/:organization_id/prompts/:prompt_id',
    {
      schema: {
        summary: 'Delete a prompt and its versions',
        tags: ['prompts'],
        params: IdParams,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deletePrompt(db, orgOf(request).orgId, request.params.prompt_id);
      return { message: 'Prompt deleted successfully' };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_id/versions',
    {
      schema: {
        summary: 'Every version of a prompt, newest first',
        tags: ['prompts'],
        params: IdParams,
        response: { 200: VersionsSchema, ...errors },
      },
    },
    async (request) => {
      const versions = await listPromptVersions(db, orgOf(request).orgId, request.params.prompt_id);
      return { prompts: versions.map(toBody), total_count: versions.length, skip: 0 };
    },
  );
}
