import { isDeepStrictEqual } from 'node:util';
import { type DocumentRecord, deleteDocument, getDocument, listDocuments, updateDocument } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import {
  documentIdField,
  documentIdOf,
  iso,
  limitField,
  nameSearchField,
  skipField,
  subjectDocumentId,
  tagIdsField,
} from './shared.ts';
import { documentState } from './working-state.ts';

const metadataField = z.record(z.string().min(1).max(100), z.string().max(1000));

/** A document as the tools answer it. */
export const toDocument = (d: DocumentRecord) => ({
  id: d.id,
  document_name: d.name,
  state: d.state,
  tag_ids: d.tagIds,
  metadata: d.metadata,
  page_count: d.pageCount,
  upload_date: iso(d.uploadedAt),
});

export const listDocumentsTool = defineTool({
  name: 'list_documents',
  description:
    "List the organization's documents, newest first, with optional filters. Returns id, name, state, tags, metadata and page count of each, and total_count.",
  access: 'read_only',
  input: z.strictObject({
    skip: skipField,
    limit: limitField,
    name_search: nameSearchField,
    tag_ids: tagIdsField.optional().describe('Only documents having all these tag ids'),
    metadata_search: metadataField.optional().describe('Only documents whose metadata has all these key/value pairs'),
  }),
  async run(context, input) {
    const page = await listDocuments(context.services.db, context.access.orgId, {
      skip: input.skip,
      limit: input.limit,
      tagIds: input.tag_ids,
      nameSearch: input.name_search,
      metadataSearch: input.metadata_search,
    });
    return { documents: page.documents.map(toDocument), total_count: page.total, skip: input.skip };
  },
});

export const updateDocumentTool = defineTool({
  name: 'update_document',
  description:
    'Rename a document, or replace its tags or metadata. Omitted fields stay as they are; tag_ids and metadata replace the whole list/map. ' +
    'Tags decide which prompts run on the document.',
  access: 'read_write',
  writeEffect: 'replaces',
  input: z.strictObject({
    document_id: documentIdField,
    document_name: z.string().trim().min(1).max(255).optional().describe('New file name, e.g. "invoice-2024-117.pdf"'),
    tag_ids: tagIdsField.optional().describe('The complete new list of tag ids (use list_tags for ids); [] removes all tags'),
    metadata: metadataField.optional().describe('The complete new metadata, string keys to string values; {} removes all'),
  }),
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    const { db } = context.services;
    const { orgId } = context.access;
    const current = await getDocument(db, orgId, documentId);
    const unchanged =
      (input.document_name === undefined || input.document_name === current.name) &&
      (input.tag_ids === undefined || isDeepStrictEqual([...new Set(input.tag_ids)].sort(), [...current.tagIds].sort())) &&
      (input.metadata === undefined || isDeepStrictEqual(input.metadata, current.metadata));
    if (unchanged) return { message: 'No changes', ...toDocument(current) };
    const updated = await updateDocument(db, orgId, documentId, {
      name: input.document_name,
      tagIds: input.tag_ids,
      metadata: input.metadata,
    });
    return { message: 'Document updated', ...toDocument(updated) };
  },
});

export const deleteDocumentTool = defineTool({
  name: 'delete_document',
  description: 'Delete a document with its text, file and extraction results. This cannot be undone.',
  access: 'read_write',
  writeEffect: 'removes',
  input: z.strictObject({ document_id: documentIdField }),
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    const document = await getDocument(context.services.db, context.access.orgId, documentId);
    await deleteDocument(context.services.documents, context.access.orgId, documentId);
    if (documentId === subjectDocumentId(context)) delete documentState(context).extraction;
    return { message: `Document "${document.name}" deleted`, document_id: documentId };
  },
});
