import { and, eq, inArray } from 'drizzle-orm';
import { documents } from '../db/schema.ts';
import { StageProgress } from '../documents/document-progress.ts';
import { isDomainError } from '../errors.ts';
import { promptsForDocument } from '../prompts/prompts.ts';
import { settleExtractionState } from './extraction-state.ts';
import { failedPromptIds } from './prompt-outcomes.ts';
import { ExtractionAnswerError, type ExtractionServices, runExtraction } from './run-extraction.ts';
import { markWaitingForModel } from './waiting-for-model.ts';

/** Failures that another attempt would meet again: record them at once instead of retrying. */
const isPermanent = (error: unknown) =>
  error instanceof ExtractionAnswerError ||
  (isDomainError(error) && error.kind !== 'upstream_failed' && error.kind !== 'unavailable');

export type DocumentExtractionOutcome = 'completed' | 'failed' | 'skipped';

/**
 * Runs the prompts a document gets once its text is ready: the default prompt and every prompt
 * sharing a tag with it, each storing its result. Results already stored are kept, so a retried
 * job does only what is left; a prompt whose latest run failed runs again. The document is
 * llm_processing meanwhile, its progress counting the prompts run; at the end its state is
 * settled by the rule of extraction-state.ts (llm_failed while a prompt's latest run failed, with
 * the reasons). With no LLM provider the document waits for one (waiting-for-model.ts): there is
 * nothing to fail, only something to configure, and configuring it queues this job again.
 */
export async function runDocumentExtractions(
  services: ExtractionServices,
  documentId: string,
  attempt: { isLast: boolean },
): Promise<DocumentExtractionOutcome> {
  const { db } = services;
  const [doc] = await db
    .select({ orgId: documents.orgId, tagIds: documents.tagIds })
    .from(documents)
    .where(eq(documents.id, documentId));
  if (!doc) return 'skipped';
  const hasProvider = async () => (await services.llm.providers(doc.orgId)).length > 0;
  if (!(await hasProvider())) {
    await markWaitingForModel(db, documentId);
    // A provider configured before the mark was written finds nothing waiting: look again after it.
    if (!(await hasProvider())) {
      // A retry that finds the provider gone ends the run it belongs to rather than leave it processing.
      await settleExtractionState(db, documentId, { jobDone: true });
      return 'skipped';
    }
  }

  const moved = await db
    .update(documents)
    .set({ state: 'llm_processing', stateError: null, llmWaitingSince: null })
    .where(
      and(
        eq(documents.id, documentId),
        inArray(documents.state, ['ocr_completed', 'llm_processing', 'llm_failed', 'llm_completed']),
      ),
    )
    .returning({ id: documents.id });
  if (moved.length === 0) return 'skipped';

  const failedBefore = await failedPromptIds(db, documentId);
  const prompts = await promptsForDocument(db, doc.orgId, doc.tagIds);
  const progress = new StageProgress(db, documentId, 'extraction');
  try {
    for (const [done, prompt] of prompts.entries()) {
      progress.report(done, prompts.length);
      try {
        await runExtraction(services, doc.orgId, documentId, prompt.promptRevid, { force: failedBefore.has(prompt.promptId) });
      } catch (error) {
        // The failure is recorded (runExtraction); a passing one is worth another attempt of the job.
        if (!isPermanent(error) && !attempt.isLast) throw error;
      }
    }
  } finally {
    await progress.end();
  }
  const state = await settleExtractionState(db, documentId, { jobDone: true });
  if (state === undefined) return 'skipped';
  return state === 'llm_failed' ? 'failed' : 'completed';
}
