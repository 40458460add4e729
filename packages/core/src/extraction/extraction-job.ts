import { and, eq, inArray } from 'drizzle-orm';
import { documents } from '../db/schema.ts';
import { isDomainError } from '../errors.ts';
import { promptsForDocument } from '../prompts/prompts.ts';
import { ExtractionAnswerError, type ExtractionServices, runExtraction } from './run-extraction.ts';

/** Failures that another attempt would meet again: record them at once instead of retrying. */
const isPermanent = (error: unknown) =>
  error instanceof ExtractionAnswerError ||
  (isDomainError(error) && error.kind !== 'upstream_failed' && error.kind !== 'unavailable');

export type DocumentExtractionOutcome = 'completed' | 'failed' | 'skipped';

/**
 * Runs the prompts a document gets once its text is ready: the default prompt and every prompt
 * sharing a tag with it, each storing its result. Results already stored are kept, so a retried
 * job does only what is left. The document moves through llm_processing to llm_completed, or to
 * llm_failed with each failing prompt's reason. With no LLM provider configured the document
 * stays at ocr_completed: there is nothing to fail, only something to configure.
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
  if ((await services.llm.providers(doc.orgId)).length === 0) return 'skipped';

  const moved = await db
    .update(documents)
    .set({ state: 'llm_processing', stateError: null })
    .where(
      and(
        eq(documents.id, documentId),
        inArray(documents.state, ['ocr_completed', 'llm_processing', 'llm_failed', 'llm_completed']),
      ),
    )
    .returning({ id: documents.id });
  if (moved.length === 0) return 'skipped';

  const failures: string[] = [];
  for (const prompt of await promptsForDocument(db, doc.orgId, doc.tagIds)) {
    try {
      await runExtraction(services, doc.orgId, documentId, prompt.promptRevid);
    } catch (error) {
      if (!isPermanent(error) && !attempt.isLast) throw error;
      failures.push(`${prompt.name}: ${(error as Error).message}`);
    }
  }
  await db
    .update(documents)
    .set(
      failures.length === 0
        ? { state: 'llm_completed', stateError: null }
        : { state: 'llm_failed', stateError: failures.join('\n').slice(0, 4000) },
    )
    .where(and(eq(documents.id, documentId), eq(documents.state, 'llm_processing')));
  return failures.length === 0 ? 'completed' : 'failed';
}
