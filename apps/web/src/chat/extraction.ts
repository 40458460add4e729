import type { ChatFrame, WorkingExtraction } from '../api/chatStream';

/** The tools whose results carry the conversation's extraction. */
const EXTRACTION_TOOLS = new Set(['run_extraction', 'update_extraction_field']);

/** The extraction a tool result carries (run_extraction, update_extraction_field), else null. */
export function extractionOfToolResult(frame: Extract<ChatFrame, { type: 'tool_result' }>): WorkingExtraction | null {
  if (!frame.success || !EXTRACTION_TOOLS.has(frame.name)) return null;
  const result = frame.result as { prompt_revid?: unknown; updated_llm_result?: unknown } | undefined;
  if (!result || typeof result !== 'object' || result.updated_llm_result === undefined) return null;
  return { promptRevid: typeof result.prompt_revid === 'string' ? result.prompt_revid : '', values: result.updated_llm_result };
}

/** The extraction of a stored thread's working state, if it has one. */
export function extractionOfWorkingState(state: Record<string, unknown> | undefined): WorkingExtraction | null {
  const extraction = state?.extraction as Partial<WorkingExtraction> | undefined;
  if (!extraction || typeof extraction !== 'object' || extraction.values === undefined) return null;
  return { promptRevid: typeof extraction.promptRevid === 'string' ? extraction.promptRevid : '', values: extraction.values };
}
