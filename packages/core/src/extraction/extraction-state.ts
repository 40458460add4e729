import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { type DocumentState, documents, extractionOutcomes, prompts } from '../db/schema.ts';

/** A prompt's latest outcome on a document, as the decision below reads it. */
export interface PromptOutcome {
  promptName: string;
  succeeded: boolean;
  error: string | null;
}

export interface ExtractionState {
  state: DocumentState;
  stateError: string | null;
}

/** States after the text and before or after the prompts: the only ones the prompts' outcomes decide. */
const DECIDED_BY_PROMPTS: ReadonlySet<DocumentState> = new Set([
  'ocr_completed',
  'llm_processing',
  'llm_completed',
  'llm_failed',
]);

const MAX_STATE_ERROR = 4000;

/**
 * The one rule for a document's extraction state, whichever path ran a prompt (the job after the
 * text, POST llm/run, the agent's run_extraction): llm_failed while at least one prompt's latest
 * outcome is a failure, with each failing prompt's reason; llm_completed when every prompt that
 * ran last succeeded; ocr_completed while none has run. Undefined leaves the state as it is: the
 * text is not there (uploaded, ocr_*), or the prompts' job is running (llm_processing), which
 * decides when it is done (`jobDone`) and counts what other paths recorded meanwhile.
 */
export function extractionStateOf(
  current: DocumentState,
  outcomes: readonly PromptOutcome[],
  options: { jobDone?: boolean } = {},
): ExtractionState | undefined {
  if (!DECIDED_BY_PROMPTS.has(current)) return undefined;
  if (current === 'llm_processing' && !options.jobDone) return undefined;
  const failures = outcomes.filter((o) => !o.succeeded);
  if (failures.length > 0) {
    const reasons = failures.map((f) => `${f.promptName}: ${f.error ?? 'no reason was recorded'}`);
    return { state: 'llm_failed', stateError: reasons.join('\n').slice(0, MAX_STATE_ERROR) };
  }
  return { state: outcomes.length > 0 ? 'llm_completed' : 'ocr_completed', stateError: null };
}

/**
 * Applies the rule to the document as its outcomes stand. The row is locked before the outcomes
 * are read, so of two runs finishing together the later one decides with both outcomes in view.
 * Returns the state the document is left in; undefined for a deleted document.
 */
export async function settleExtractionState(
  db: Db,
  documentId: string,
  options: { jobDone?: boolean } = {},
): Promise<DocumentState | undefined> {
  return db.transaction(async (tx) => {
    const [doc] = await tx.select({ state: documents.state }).from(documents).where(eq(documents.id, documentId)).for('update');
    if (!doc) return undefined;
    const outcomes = await tx
      .select({ promptName: prompts.name, succeeded: extractionOutcomes.succeeded, error: extractionOutcomes.error })
      .from(extractionOutcomes)
      .innerJoin(prompts, eq(prompts.id, extractionOutcomes.promptId))
      .where(eq(extractionOutcomes.documentId, documentId))
      .orderBy(asc(extractionOutcomes.at));
    const next = extractionStateOf(doc.state, outcomes, options);
    if (!next) return doc.state;
    await tx.update(documents).set(next).where(eq(documents.id, documentId));
    return next.state;
  });
}

/** The rule applied to each of these documents, e.g. after prompts and their outcomes were deleted. */
export async function settleExtractionStates(db: Db, documentIds: Iterable<string>): Promise<void> {
  for (const id of new Set(documentIds)) await settleExtractionState(db, id);
}
