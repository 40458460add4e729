import { getDocument } from '@docagent/core';
import type { Pack } from '../../engine/pack.ts';
import type { ToolDefinition } from '../../tools/tool.ts';
import { documentSection } from './context-section.ts';
import { getDocumentTool, uploadDocumentTool } from './direct-document-tools.ts';
import { deleteDocumentTool, listDocumentsTool, updateDocumentTool } from './document-tools.ts';
import { evaluatePromptTool } from './evaluate-tools.ts';
import { getExtractionResultTool, runExtractionTool, updateExtractionField } from './extraction-tools.ts';
import { helpPrompts, helpSchemas } from './help-tools.ts';
import { inferSchemaTool } from './infer-tools.ts';
import { DOCUMENT_MENTION_KINDS, resolveDocumentMention } from './mentions.ts';
import { listLlmModels } from './model-tools.ts';
import { getOcrText } from './ocr-tools.ts';
import { createPromptTool, deletePromptTool, getPromptTool, listPromptsTool, updatePromptTool } from './prompt-tools.ts';
import {
  createSchemaTool,
  deleteSchemaTool,
  getSchemaTool,
  listSchemasTool,
  updateSchemaTool,
  validateAgainstSchemaTool,
  validateSchemaTool,
} from './schema-tools.ts';
import { createTagTool, deleteTagTool, getTagTool, listTagsTool, updateTagTool } from './tag-tools.ts';
import { DOCUMENT_STATE_KEYS } from './working-state.ts';

/** The 29 tools of the document agent, read-only first, in the order of the design. */
export const documentTools: ToolDefinition[] = [
  // Read-only (16; infer_schema and evaluate_prompt ask first: they spend model calls)
  getOcrText,
  getExtractionResultTool,
  listDocumentsTool,
  getSchemaTool,
  listSchemasTool,
  validateSchemaTool,
  validateAgainstSchemaTool,
  inferSchemaTool,
  evaluatePromptTool,
  getPromptTool,
  listPromptsTool,
  getTagTool,
  listTagsTool,
  helpSchemas,
  helpPrompts,
  listLlmModels,
  // Read-write (13)
  runExtractionTool,
  updateExtractionField,
  updateDocumentTool,
  deleteDocumentTool,
  createSchemaTool,
  updateSchemaTool,
  deleteSchemaTool,
  createPromptTool,
  updatePromptTool,
  deletePromptTool,
  createTagTool,
  updateTagTool,
  deleteTagTool,
];

/** The document subject: the document page's conversations, with the 27 tools. */
export const documentPack: Pack = {
  name: 'document',
  serves: ['document'],
  tools: documentTools,
  async findSubject(services, access, subject) {
    const document = await getDocument(services.db, access.orgId, subject.id);
    return { title: document.name };
  },
  section: documentSection,
  mentions: {
    kinds: DOCUMENT_MENTION_KINDS,
    resolve: (services, orgId, mention) => resolveDocumentMention(services.db, orgId, mention),
  },
  workingStateKeys: DOCUMENT_STATE_KEYS,
  subjectArgument: { name: 'document_id', description: 'The document the call is about' },
  directTools: [uploadDocumentTool, getDocumentTool],
};

export { PROMPT_HELP, SCHEMA_HELP } from './help-tools.ts';
export type { DocumentWorkingState } from './working-state.ts';
