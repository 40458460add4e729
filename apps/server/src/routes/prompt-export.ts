import { EXPORT_FORMATS, exportPromptResults } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';
import { parseTagIds } from './upload-bodies.ts';

/** A prompt's results over its documents as a CSV, XLSX or JSON download, streamed. */
export function promptExportRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_id/results/export',
    {
      schema: {
        summary:
          "Export a prompt's results, one row per document: CSV (nested objects as dotted columns, lists as JSON text), XLSX (and a sheet of list items) or JSON",
        tags: ['prompts'],
        params: OrgParamsSchema.extend({ prompt_id: z.string().min(1).max(64) }),
        querystring: z.object({
          format: z.enum(EXPORT_FORMATS).default('csv'),
          prompt_revid: z
            .string()
            .max(64)
            .optional()
            .describe("One revision's results; by default each document's latest result of the prompt"),
          tag_ids: z.string().max(6500).optional().describe('Comma-separated tag ids; documents having all of them'),
        }),
        produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json'],
        response: { 200: z.unknown().describe('The file, as an attachment'), 400: ErrorBodySchema, 404: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { format, prompt_revid, tag_ids } = request.query;
      const file = await exportPromptResults(db, orgOf(request).orgId, request.params.prompt_id, format, {
        promptRevid: prompt_revid || undefined,
        tagIds: parseTagIds(tag_ids),
      });
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );
}
