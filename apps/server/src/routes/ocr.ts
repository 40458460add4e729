import { getDocumentPages, getDocumentText, getTextMetadata, rerunTextExtraction, textMetadataOf } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { TextMetadataSchema, toTextMetadata } from './document-shapes.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';

/** DocRouter calls a document's text "OCR" whatever produced it; these are its paths. */

const DocumentParamsSchema = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };

const PositionedTextSchema = z.object({
  text: z.string(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  confidence: z.number().optional(),
});

const PageSchema = z.object({
  page: z.number(),
  width: z.number(),
  height: z.number(),
  engine: z.string(),
  text: z.string(),
  items: z.array(PositionedTextSchema),
});

export function ocrRoutes(app: ZodApp, { documents: services }: RouteDeps): void {
  const { db } = services;

  app.get(
    '/v0/orgs/:organization_id/ocr/download/text/:document_id',
    {
      schema: {
        summary: 'The document text as plain text: all pages, or page_num (from 1)',
        tags: ['text'],
        params: DocumentParamsSchema,
        querystring: z.object({ page_num: z.coerce.number().int().optional() }),
        produces: ['text/plain'],
        response: { 200: z.string(), ...errors },
      },
    },
    async (request, reply) => {
      const text = await getDocumentText(db, orgOf(request).orgId, request.params.document_id, request.query.page_num);
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );

  app.get(
    '/v0/orgs/:organization_id/ocr/download/metadata/:document_id',
    {
      schema: {
        summary: 'Page count, date and engine of the document text',
        tags: ['text'],
        params: DocumentParamsSchema,
        response: { 200: TextMetadataSchema, ...errors },
      },
    },
    async (request) => toTextMetadata(await getTextMetadata(db, orgOf(request).orgId, request.params.document_id)),
  );

  app.get(
    '/v0/orgs/:organization_id/ocr/download/json/:document_id',
    {
      schema: {
        summary: 'The document text per page, with positioned words or lines',
        tags: ['text'],
        params: DocumentParamsSchema,
        response: {
          200: TextMetadataSchema.extend({ document_id: z.string(), pages: z.array(PageSchema) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { document, pages } = await getDocumentPages(db, orgOf(request).orgId, request.params.document_id);
      return {
        document_id: document.id,
        ...toTextMetadata(textMetadataOf(document)),
        pages,
      };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/ocr/run/:document_id',
    {
      schema: {
        summary: 'Extract the document text again',
        tags: ['text'],
        params: DocumentParamsSchema,
        response: { 200: z.object({ document_id: z.string(), state: z.string() }), ...errors },
      },
    },
    async (request) => {
      const document = await rerunTextExtraction(services, orgOf(request).orgId, request.params.document_id);
      return { document_id: document.id, state: document.state };
    },
  );
}
