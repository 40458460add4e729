import type { ToolContext } from '../../tools/tool.ts';

/**
 * The document pack's slice of the working state, in DocRouter's keys and shape: the schema and
 * prompt revisions the agent works on, and the values of its latest extraction.
 */
export interface DocumentWorkingState {
  schema_revid?: string;
  prompt_revid?: string;
  extraction?: Record<string, unknown>;
}

export const DOCUMENT_STATE_KEYS = ['schema_revid', 'prompt_revid', 'extraction'] as const;

export const documentState = (context: Pick<ToolContext, 'workingState'>): DocumentWorkingState =>
  context.workingState as DocumentWorkingState;
