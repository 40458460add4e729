import { Readable } from 'node:stream';
import {
  AUTO_CREATE_STATUSES,
  deleteDocument,
  getDocument,
  invalidInput,
  listDocuments,
  openDocumentFile,
  type UploadDatasetTarget,
  updateDocument,
  uploadDocumentsToDataset,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import { storedFileHeaders } from '../http/security-headers.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { DatasetSchema, toDataset } from './dataset-shapes.ts';
import {
  DocumentSchema,
  DocumentWithContentSchema,
  toDocument,
  toUploadedDocument,
  UploadedDocumentSchema,
} from './document-shapes.ts';
import { ErrorBodySchema, OrgParamsSchema, PageQuerySchema } from './schemas.ts';
import { datasetTargetOf, filesFromJson, filesFromMultipart, JsonUploadBodySchema, parseTagIds } from './upload-bodies.ts';

const DocumentParamsSchema = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const UploadResponseSchema = z.object({
  documents: z.array(UploadedDocumentSchema),
  dataset: DatasetSchema.optional().describe('The dataset the files went into, when the upload named one'),
});
const MessageSchema = z.object({ message: z.string() });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema };

/** `key=value,key2=value2`, as DocRouter's clients send metadata_search. */
function parseMetadataSearch(value: string | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  const pairs = value.split(',').map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw invalidInput(`metadata_search "${value}" must be key=value pairs separated by commas.`);
    return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()] as const;
  });
  return Object.fromEntries(pairs);
}

async function collect(content: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of content) parts.push(part);
  return Buffer.concat(parts);
}

/** The upload's answer: DocRouter's, plus the dataset when the upload named one. */
function uploadAnswer(uploaded: Awaited<ReturnType<typeof uploadDocumentsToDataset>>): z.infer<typeof UploadResponseSchema> {
  const documents = uploaded.documents.map(toUploadedDocument);
  return uploaded.dataset ? { documents, dataset: toDataset(uploaded.dataset) } : { documents };
}

export function documentRoutes(app: ZodApp, { config, documents: services, data }: RouteDeps): void {
  const { db } = services;
  const uploadServices = { documents: services, datasets: data };

  app.post(
    '/v0/orgs/:organization_id/documents',
    {
      // Base64 is a third larger than the bytes it carries.
      bodyLimit: Math.ceil((config.upload.maxRequestBytes * 4) / 3) + 1024 * 1024,
      schema: {
        summary: 'Upload documents as base64 or data URLs (DocRouter-compatible)',
        tags: ['documents'],
        params: OrgParamsSchema,
        body: JsonUploadBodySchema,
        response: { 200: UploadResponseSchema, ...errors },
      },
    },
    async (request) => {
      const target = datasetTargetOf(request.body);
      const files = filesFromJson(request.body);
      return uploadAnswer(await uploadDocumentsToDataset(uploadServices, orgOf(request), files, config.upload, () => target));
    },
  );

  app.post(
    '/v0/orgs/:organization_id/documents/multipart',
    {
      // A refused upload may still be streaming in. Closing the connection stops reading
      // the rest, where keep-alive would hold the socket (and a graceful shutdown) open for it.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode >= 400) reply.header('connection', 'close');
        return payload;
      },
      schema: {
        summary:
          'Upload documents as multipart/form-data: files, with optional tag_ids, metadata, auto_create, and dataset_id or create_dataset fields before them',
        tags: ['documents'],
        params: OrgParamsSchema,
        consumes: ['multipart/form-data'],
        response: { 200: UploadResponseSchema, ...errors },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw invalidInput('Send the files as multipart/form-data.');
      const target: UploadDatasetTarget = {};
      const files = filesFromMultipart(request.parts(), target);
      return uploadAnswer(await uploadDocumentsToDataset(uploadServices, orgOf(request), files, config.upload, () => target));
    },
  );

  app.get(
    '/v0/orgs/:organization_id/documents',
    {
      schema: {
        summary: 'List documents, newest first',
        tags: ['documents'],
        params: OrgParamsSchema,
        querystring: PageQuerySchema.extend({
          tag_ids: z.string().optional().describe('Comma-separated tag ids; documents having all of them'),
          metadata_search: z.string().max(2000).optional().describe('key=value pairs separated by commas'),
          auto_create_status: z
            .enum(AUTO_CREATE_STATUSES)
            .optional()
            .describe('Only documents whose auto-create is in this state'),
          needs_review: z
            .stringbool()
            .default(false)
            .describe('Only documents with an extracted field to review (its citation under DOCAGENT_REVIEW_CONFIDENCE)'),
        }),
        response: {
          200: z.object({ documents: z.array(DocumentSchema), total_count: z.number(), skip: z.number() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await listDocuments(db, orgOf(request).orgId, {
        skip: q.skip,
        limit: q.limit,
        tagIds: parseTagIds(q.tag_ids),
        nameSearch: q.name_search,
        metadataSearch: parseMetadataSearch(q.metadata_search),
        autoCreateStatus: q.auto_create_status,
        reviewBelow: q.needs_review ? config.reviewConfidence : undefined,
      });
      return { documents: page.documents.map(toDocument), total_count: page.total, skip: q.skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/documents/:document_id',
    {
      schema: {
        summary: 'One document, with its file as base64 unless include_content=false',
        tags: ['documents'],
        params: DocumentParamsSchema,
        querystring: z.object({
          file_type: z.enum(['original', 'pdf']).default('original'),
          include_content: z.stringbool().default(true),
        }),
        response: { 200: DocumentWithContentSchema, ...errors },
      },
    },
    async (request) => {
      const orgId = orgOf(request).orgId;
      const id = request.params.document_id;
      if (!request.query.include_content) return { ...toDocument(await getDocument(db, orgId, id)), content: null };
      const { document, content } = await openDocumentFile(services, orgId, id);
      return { ...toDocument(document), content: (await collect(content)).toString('base64') };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/documents/:document_id/file',
    {
      schema: {
        summary: 'The original file',
        tags: ['documents'],
        params: DocumentParamsSchema,
        produces: ['application/octet-stream'],
        response: { 200: z.unknown().describe('The file, with its own content type'), 404: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const { document, content } = await openDocumentFile(services, orgOf(request).orgId, request.params.document_id);
      return reply
        .type(document.mimeType)
        .header('content-length', document.sizeBytes)
        .headers(storedFileHeaders(document.name, document.kind))
        .send(Readable.from(content));
    },
  );

  app.put(
    '/v0/orgs/:organization_id/documents/:document_id',
    {
      schema: {
        summary: 'Rename a document, or change its tags or metadata',
        tags: ['documents'],
        params: DocumentParamsSchema,
        body: z.strictObject({
          document_name: z.string().optional(),
          tag_ids: z.array(z.string()).optional(),
          metadata: z.record(z.string(), z.string()).optional(),
        }),
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) => {
      const { document_name, tag_ids, metadata } = request.body;
      await updateDocument(db, orgOf(request).orgId, request.params.document_id, {
        name: document_name,
        tagIds: tag_ids,
        metadata,
      });
      return { message: 'Document updated successfully' };
    },
  );

  app.delete(
    '/v0/orgs/:organization_id/documents/:document_id',
    {
      schema: {
        summary: 'Delete a document, its text and its file',
        tags: ['documents'],
        params: DocumentParamsSchema,
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (request) => {
      await deleteDocument(services, orgOf(request).orgId, request.params.document_id);
      return { message: 'Document deleted successfully' };
    },
  );
}
