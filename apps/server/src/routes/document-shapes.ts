import { AUTO_CREATE_STATUSES, type DocumentRecord, PROGRESS_STAGES, type TextMetadata } from '@docagent/core';
import { z } from 'zod';
import { iso, isoOrNull } from './schemas.ts';

/**
 * Documents as DocRouter's clients read them (its TypeScript SDK and MCP server), plus
 * fields of ours that those clients ignore.
 */
const DocRouterDocumentFields = {
  document_name: z.string(),
  upload_date: z.string(),
  uploaded_by: z.string(),
  state: z.string(),
  tag_ids: z.array(z.string()),
  type: z.string(),
  metadata: z.record(z.string(), z.string()),
};

/**
 * Auto-create's state (seed 000 section 4.3); each field only when set, so a document without
 * auto-create keeps exactly DocRouter's shape.
 */
const AutoCreateFields = {
  auto_create: z.literal(true).optional().describe('Present when the upload asked for auto-create'),
  auto_create_status: z.enum(AUTO_CREATE_STATUSES).optional(),
  auto_create_schema_revid: z.string().optional(),
  auto_create_prompt_revid: z.string().optional(),
  auto_create_error: z.string().optional(),
};

const ProgressSchema = z
  .object({
    stage: z.enum(PROGRESS_STAGES).describe('text: pages with their text; extraction: prompts run'),
    done: z.number().int(),
    total: z.number().int(),
  })
  .nullable()
  .describe(
    'How far the text extraction or the prompts have got while they run (ocr_processing, llm_processing); null otherwise',
  );

export const UploadedDocumentSchema = z.object({ document_id: z.string(), ...DocRouterDocumentFields, ...AutoCreateFields });

export const DocumentSchema = z.object({
  id: z.string(),
  // DocRouter converts every upload to a PDF and names it here; the original is what we serve.
  pdf_id: z.string(),
  ...DocRouterDocumentFields,
  kind: z.enum(['pdf', 'image', 'text', 'markdown', 'csv', 'xlsx']),
  size_bytes: z.number(),
  page_count: z.number().nullable(),
  state_error: z.string().nullable(),
  progress: ProgressSchema,
  ...AutoCreateFields,
});

export const DocumentWithContentSchema = DocumentSchema.extend({ content: z.string().nullable() });

const commonFields = (d: DocumentRecord) => ({
  document_name: d.name,
  upload_date: iso(d.uploadedAt),
  uploaded_by: d.uploadedBy,
  state: d.state,
  tag_ids: d.tagIds,
  type: d.mimeType,
  metadata: d.metadata,
  ...(d.autoCreate ? { auto_create: true as const } : {}),
  ...(d.autoCreateStatus ? { auto_create_status: d.autoCreateStatus } : {}),
  ...(d.autoCreateSchemaRevid ? { auto_create_schema_revid: d.autoCreateSchemaRevid } : {}),
  ...(d.autoCreatePromptRevid ? { auto_create_prompt_revid: d.autoCreatePromptRevid } : {}),
  ...(d.autoCreateError ? { auto_create_error: d.autoCreateError } : {}),
});

export const toUploadedDocument = (d: DocumentRecord): z.infer<typeof UploadedDocumentSchema> => ({
  document_id: d.id,
  ...commonFields(d),
});

export const toDocument = (d: DocumentRecord): z.infer<typeof DocumentSchema> => ({
  id: d.id,
  pdf_id: d.id,
  ...commonFields(d),
  kind: d.kind,
  size_bytes: d.sizeBytes,
  page_count: d.pageCount,
  state_error: d.stateError,
  progress: d.progress,
});

export const TextMetadataSchema = z.object({
  n_pages: z.number(),
  ocr_date: z.string().nullable(),
  ocr_type: z.string().nullable(),
  removed_characters: z
    .number()
    .describe('Characters dropped from the text because they cannot be stored: NUL and unpaired UTF-16 surrogates'),
});

export const toTextMetadata = (m: TextMetadata): z.infer<typeof TextMetadataSchema> => ({
  n_pages: m.pageCount,
  ocr_date: isoOrNull(m.extractedAt),
  ocr_type: m.engine,
  removed_characters: m.removedCharacters,
});
