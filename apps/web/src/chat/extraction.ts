import type { WorkingExtraction } from '../api/chatStream';

/** The tools whose results carry the conversation's extraction. */
const EXTRACTION_TOOLS = new Set(['run_extraction', 'update_extraction_field']);

/** The extraction a successful call's result carries (run_extraction, update_extraction_field), else null. */
export function extractionOfToolResult(tool: string, output: unknown): WorkingExtraction | null {
  if (!EXTRACTION_TOOLS.has(tool)) return null;
  const result = output as { prompt_revid?: unknown; updated_llm_result?: unknown } | undefined;
  if (!result || typeof result !== 'object' || result.updated_llm_result === undefined) return null;
  return { promptRevid: typeof result.prompt_revid === 'string' ? result.prompt_revid : '', values: result.updated_llm_result };
}

/** The extraction of a working state (DocRouter's keys: prompt_revid, and extraction as the values), if it has one. */
export function extractionOfWorkingState(state: Record<string, unknown> | undefined): WorkingExtraction | null {
  if (state?.extraction === undefined || state.extraction === null) return null;
  return { promptRevid: typeof state.prompt_revid === 'string' ? state.prompt_revid : '', values: state.extraction };
}
