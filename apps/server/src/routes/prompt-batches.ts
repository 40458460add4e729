import {
  BATCH_ITEM_STATUSES,
  BATCH_LIMITS,
  type BatchRecord,
  type BatchSelection,
  cancelBatch,
  createBatch,
  getBatch,
  listBatches,
  listBatchItems,
  retryFailedItems,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, id, iso, isoOrNull, OrgParamsSchema, PageQuerySchema } from './schemas.ts';

const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['batches'];
const BatchParams = OrgParamsSchema.extend({ batch_id: id });

/** How many of a batch's (or an evaluation's) documents are in each state. */
export const BatchCountsSchema = z.object({
  total: z.number(),
  pending: z.number(),
  running: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  cancelled: z.number(),
});

const BatchSchema = z.object({
  batch_id: z.string(),
  prompt_id: z.string(),
  prompt_revid: z.string(),
  selection: z.record(z.string(), z.unknown()).describe('How the documents were chosen'),
  kind: z.enum(['run', 'evaluation']).describe("'run' stores answers as results; 'evaluation' scores them (see evaluations)"),
  status: z.enum(['running', 'finished', 'cancelled']),
  counts: BatchCountsSchema,
  created_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const toBatch = (b: BatchRecord): z.infer<typeof BatchSchema> => ({
  batch_id: b.id,
  prompt_id: b.promptId,
  prompt_revid: b.promptRevid,
  selection: b.selection,
  kind: b.kind,
  status: b.status,
  counts: b.counts,
  created_by: b.createdBy,
  created_at: iso(b.createdAt),
  finished_at: isoOrNull(b.finishedAt),
});

const CreateBatchBody = z
  .strictObject({
    prompt_revid: id.optional().describe('A revision of this prompt; default: its latest'),
    document_ids: z.array(id).min(1).max(BATCH_LIMITS.documents).optional(),
    tag_ids: z.array(id).min(1).max(50).optional(),
    name_search: z.string().trim().min(1).max(200).optional(),
  })
  .refine((b) => [b.document_ids, b.tag_ids, b.name_search].filter((x) => x !== undefined).length === 1, {
    message: 'Choose the documents one way: document_ids, tag_ids or name_search.',
  });

function selectionOf(body: z.infer<typeof CreateBatchBody>): BatchSelection {
  if (body.document_ids) return { documentIds: body.document_ids };
  if (body.tag_ids) return { tagIds: body.tag_ids };
  return { nameSearch: body.name_search ?? '' };
}

/** Batches: a prompt revision run over many documents as jobs, with progress, cancel and retry of the failed. */
export function promptBatchRoutes(app: ZodApp, { db, batches }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/prompts/:prompt_id/batches',
    {
      schema: {
        summary: 'Run a prompt revision over documents chosen by id, by tags or by name, a job each',
        tags,
        params: OrgParamsSchema.extend({ prompt_id: id }),
        body: CreateBatchBody,
        response: { 200: BatchSchema, ...errors },
      },
    },
    async (request) =>
      toBatch(
        await createBatch(batches, orgOf(request), request.params.prompt_id, {
          promptRevid: request.body.prompt_revid,
          selection: selectionOf(request.body),
        }),
      ),
  );

  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_id/batches',
    {
      schema: {
        summary: "The prompt's batches (runs; evaluations are listed under evaluations), newest first",
        tags,
        params: OrgParamsSchema.extend({ prompt_id: id }),
        response: { 200: z.object({ batches: z.array(BatchSchema) }), ...errors },
      },
    },
    async (request) => ({ batches: (await listBatches(db, orgOf(request).orgId, request.params.prompt_id)).map(toBatch) }),
  );

  app.get(
    '/v0/orgs/:organization_id/batches/:batch_id',
    {
      schema: { summary: 'A batch with its progress', tags, params: BatchParams, response: { 200: BatchSchema, ...errors } },
    },
    async (request) => toBatch(await getBatch(db, orgOf(request).orgId, request.params.batch_id)),
  );

  app.get(
    '/v0/orgs/:organization_id/batches/:batch_id/documents',
    {
      schema: {
        summary: "The batch's documents with their outcome (the failed with the reason)",
        tags,
        params: BatchParams,
        querystring: PageQuerySchema.omit({ name_search: true })
          .extend({
            status: z.enum(BATCH_ITEM_STATUSES).optional(),
            limit: z.coerce.number().int().min(1).max(200).default(50),
          })
          .strict(),
        response: {
          200: z.object({
            documents: z.array(
              z.object({
                document_id: z.string(),
                document_name: z.string(),
                status: z.enum(BATCH_ITEM_STATUSES),
                error: z.string().nullable(),
                attempts: z.number(),
                updated_at: z.string(),
              }),
            ),
            total_count: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const page = await listBatchItems(db, orgOf(request).orgId, request.params.batch_id, request.query);
      return {
        documents: page.items.map((i) => ({
          document_id: i.documentId,
          document_name: i.documentName,
          status: i.status,
          error: i.error,
          attempts: i.attempts,
          updated_at: iso(i.updatedAt),
        })),
        total_count: page.total,
      };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/batches/:batch_id/cancel',
    {
      schema: {
        summary: 'Cancel a batch: documents not started are cancelled, running ones finish',
        tags,
        params: BatchParams,
        response: { 200: BatchSchema, ...errors },
      },
    },
    async (request) => toBatch(await cancelBatch(batches, orgOf(request).orgId, request.params.batch_id)),
  );

  app.post(
    '/v0/orgs/:organization_id/batches/:batch_id/retry',
    {
      schema: {
        summary: "Run the batch's failed documents again (only those)",
        tags,
        params: BatchParams,
        response: { 200: BatchSchema, ...errors },
      },
    },
    async (request) => toBatch(await retryFailedItems(batches, orgOf(request).orgId, request.params.batch_id)),
  );
}
