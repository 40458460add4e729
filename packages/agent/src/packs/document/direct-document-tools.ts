import { Readable } from 'node:stream';
import { type DocumentRecord, DomainError, getDocument, uploadDocuments } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import { toDocument } from './document-tools.ts';
import { idField, tagIdsField } from './shared.ts';

/**
 * What a program calling the tools directly (an MCP client) can do that a model in a chat cannot:
 * send a file's bytes, and read one document's state while its text is being read.
 */

export const uploadDocumentTool = defineTool({
  name: 'upload_document',
  description:
    'Upload one file (PDF, image, Office document, CSV, text…) as a new document, given as base64. Its text is read in the background: get_document shows its state, which is "ocr_completed" once the text is ready (then its prompts run: "llm_completed").',
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    document_name: z.string().trim().min(1).max(255).describe('The file name with its extension, e.g. "invoice-117.pdf"'),
    content_base64: z.base64().min(1).describe("The file's bytes, base64-encoded"),
    tag_ids: tagIdsField.optional().describe('Tags to give it (list_tags names them); they decide which prompts run'),
    metadata: z.record(z.string().min(1).max(100), z.string().max(1000)).optional().describe('String keys to string values'),
  }),
  async run(context, input) {
    const limits = context.services.uploads;
    if (!limits) {
      throw new DomainError('unavailable', 'This process takes no uploads (a worker); send the file to the server.');
    }
    const bytes = Buffer.from(input.content_base64, 'base64');
    const uploaded = await uploadDocuments(
      context.services.documents,
      context.access,
      [{ name: input.document_name, content: Readable.from([bytes]), tagIds: input.tag_ids, metadata: input.metadata }],
      limits,
    );
    return {
      message: `Document "${input.document_name}" uploaded; its text is being read`,
      ...toDocument(uploaded[0] as DocumentRecord),
    };
  },
});

export const getDocumentTool = defineTool({
  name: 'get_document',
  description:
    "One document's name, state (uploaded → ocr_processing → ocr_completed when its text is ready → llm_processing → llm_completed; ocr_failed or llm_failed with its error), tags, metadata and page count. get_ocr_text reads its text once it is ready.",
  access: 'read_only',
  input: z.strictObject({ document_id: idField('The document_id, as list_documents or upload_document gives it') }),
  async run(context, input) {
    const document = await getDocument(context.services.db, context.access.orgId, input.document_id);
    return { ...toDocument(document), error: document.stateError };
  },
});
