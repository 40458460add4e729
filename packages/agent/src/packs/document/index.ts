import { type ToolDefinition, ToolRegistry } from '../../tools/tool.ts';
import { deleteDocumentTool, listDocumentsTool, updateDocumentTool } from './document-tools.ts';
import { getExtractionResultTool, runExtractionTool, updateExtractionField } from './extraction-tools.ts';
import { helpPrompts, helpSchemas } from './help-tools.ts';
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

/** The 27 tools of the document agent, read-only first, in the order of the design. */
export const documentTools: ToolDefinition[] = [
  // Read-only (14)
  getOcrText,
  getExtractionResultTool,
  listDocumentsTool,
  getSchemaTool,
  listSchemasTool,
  validateSchemaTool,
  validateAgainstSchemaTool,
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

export function createDocumentToolRegistry(): ToolRegistry {
  return new ToolRegistry(documentTools);
}

export { PROMPT_HELP, SCHEMA_HELP } from './help-tools.ts';
