import { and, eq, inArray, not, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { documents, extractionOutcomes } from '../db/schema.ts';
import { storableText } from '../db/storable-text.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { PromptRevision } from '../prompts/prompts.ts';
import { settleExtractionState } from './extraction-state.ts';

const MAX_ERROR = 2000;

export type RunOutcome = { succeeded: true } | { succeeded: false; error: string };

/**
 * Records how a prompt's run on a document ended, replacing the prompt's earlier outcome, and
 * settles the document's state by the rule (extraction-state.ts). Every path that runs a prompt
 * comes here, through runExtraction.
 */
export async function recordPromptOutcome(
  db: Db,
  documentId: string,
  prompt: PromptRevision,
  outcome: RunOutcome,
  events?: EventBus,
) {
  const values = {
    promptRevid: prompt.promptRevid,
    succeeded: outcome.succeeded,
    error: outcome.succeeded ? null : storableText(outcome.error.slice(0, MAX_ERROR)).text,
    at: new Date(),
  };
  const recorded = await db.transaction(async (tx) => {
    // Locked so that a delete of the document waits; one deleted while its prompt ran has nothing to record on.
    const [doc] = await tx.select({ orgId: documents.orgId }).from(documents).where(eq(documents.id, documentId)).for('update');
    if (!doc) return null;
    await tx
      .insert(extractionOutcomes)
      .values({ documentId, promptId: prompt.promptId, ...values })
      .onConflictDoUpdate({ target: [extractionOutcomes.documentId, extractionOutcomes.promptId], set: values });
    return doc.orgId;
  });
  if (recorded === null) return;
  await settleExtractionState(db, documentId);
  events?.publish({
    type: outcome.succeeded ? 'llm.completed' : 'llm.error',
    orgId: recorded,
    documentId,
    promptId: prompt.promptId,
    promptRevid: prompt.promptRevid,
    promptVersion: prompt.promptVersion,
    ...(values.error === null ? {} : { error: values.error }),
    at: values.at.toISOString(),
  });
}

/** The prompts whose latest run on the document failed: the prompts' job runs them again rather than keep an older result. */
export async function failedPromptIds(db: Db, documentId: string): Promise<Set<string>> {
  const rows = await db
    .select({ promptId: extractionOutcomes.promptId })
    .from(extractionOutcomes)
    .where(and(eq(extractionOutcomes.documentId, documentId), not(extractionOutcomes.succeeded)));
  return new Set(rows.map((r) => r.promptId));
}

/**
 * The documents whose state removing these prompts' outcomes may change: where one of them failed,
 * or is the document's only outcome. Read before the prompts go (their outcomes go with them), and
 * settled after (settleExtractionStates).
 */
export async function documentsShapedByPrompts(db: Db, promptIds: string[] | SQLWrapper): Promise<string[]> {
  const rows = await db
    .selectDistinct({ documentId: extractionOutcomes.documentId })
    .from(extractionOutcomes)
    .where(
      and(
        inArray(extractionOutcomes.promptId, promptIds),
        or(
          not(extractionOutcomes.succeeded),
          sql`not exists (select 1 from ${extractionOutcomes} other where other.document_id = ${extractionOutcomes.documentId} and other.prompt_id <> ${extractionOutcomes.promptId})`,
        ),
      ),
    );
  return rows.map((r) => r.documentId);
}

/**
 * Forgets the outcomes of runs of these revisions (removed revisions whose runs are to be undone, as
 * auto-create's cleanup does); returns the documents to settle.
 */
export async function forgetOutcomesOfRevisions(db: Db, promptRevids: string[]): Promise<string[]> {
  if (promptRevids.length === 0) return [];
  const rows = await db
    .delete(extractionOutcomes)
    .where(inArray(extractionOutcomes.promptRevid, promptRevids))
    .returning({ documentId: extractionOutcomes.documentId });
  return rows.map((r) => r.documentId);
}
