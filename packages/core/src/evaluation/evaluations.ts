import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { documents, extractionResults, promptBatches, promptBatchItems } from '../db/schema.ts';
import { conflict, notFound } from '../errors.ts';
import {
  BATCH_LIMITS,
  type BatchRecord,
  type BatchServices,
  batchesWhere,
  insertBatch,
} from '../extraction/batches/prompt-batches.ts';
import type { OrgAccess } from '../identity/access.ts';
import { promptRevisionOf } from '../prompts/prompts.ts';
import { type EvaluationDifference, type EvaluationScore, type FieldAccuracy, scoreEvaluation } from './score.ts';

/**
 * Evaluations: a prompt revision run over the prompt's evaluation set (its documents with a
 * result a person verified, for any revision of the prompt) as a batch of kind 'evaluation'. Each
 * item keeps the verified result as it was at the start (`expected`) and the model's answer
 * (`answer`); the documents' results are left alone. The report scores the answers (score.ts).
 */

export interface EvaluationRecord extends BatchRecord {
  promptVersion: number;
}

export interface EvaluationReport {
  evaluation: EvaluationRecord;
  /**
   * Over the documents answered so far (succeeded items): `documents` of them; `complete` once the
   * evaluation is no longer running. Accuracies are null while no document has been answered.
   */
  score: EvaluationScore & { documents: number; complete: boolean };
  differences: Array<EvaluationDifference & { documentName: string }>;
}

/** The evaluation set of a prompt: per document, its latest verified result of any revision of the prompt. */
export async function evaluationSet(
  db: Db,
  orgId: string,
  promptId: string,
): Promise<Array<{ documentId: string; expected: Record<string, unknown> }>> {
  const rows = await db
    .select({ documentId: extractionResults.documentId, expected: extractionResults.updatedLlmResult })
    .from(extractionResults)
    .innerJoin(documents, eq(documents.id, extractionResults.documentId))
    .where(
      and(
        eq(extractionResults.orgId, orgId),
        eq(extractionResults.promptId, promptId),
        eq(extractionResults.isVerified, true),
        eq(documents.orgId, orgId),
      ),
    )
    .orderBy(desc(extractionResults.updatedAt), desc(extractionResults.id));
  const latest = new Map<string, Record<string, unknown>>();
  for (const row of rows) if (!latest.has(row.documentId)) latest.set(row.documentId, row.expected);
  return [...latest].map(([documentId, expected]) => ({ documentId, expected }));
}

/** Runs a revision of the prompt (its latest by default) over its evaluation set, a job per document. */
export async function createEvaluation(
  services: BatchServices,
  access: OrgAccess,
  promptId: string,
  input: { promptRevid?: string },
): Promise<EvaluationRecord> {
  const { db } = services;
  const revision = await promptRevisionOf(db, access.orgId, promptId, input.promptRevid || undefined);
  const set = (await evaluationSet(db, access.orgId, promptId)).slice(0, BATCH_LIMITS.documents);
  if (set.length === 0) {
    throw conflict(
      `Prompt ${promptId} has no verified documents: verify some results first (a result a person marked verified is the truth an evaluation scores against).`,
    );
  }
  const id = await insertBatch(services, access, revision, {
    kind: 'evaluation',
    selection: { evaluation_set: 'verified', document_ids: set.map((s) => s.documentId) },
    items: set,
  });
  return getEvaluation(db, access.orgId, id);
}

/** An evaluation with its progress; a batch that is not an evaluation is not found. */
export async function getEvaluation(db: Db, orgId: string, evaluationId: string): Promise<EvaluationRecord> {
  const [evaluation] = await batchesWhere(
    db,
    and(eq(promptBatches.id, evaluationId), eq(promptBatches.orgId, orgId), eq(promptBatches.kind, 'evaluation')),
    1,
  );
  if (!evaluation) throw notFound(`Evaluation ${evaluationId}`);
  return evaluation;
}

/** The evaluations of a prompt, newest first. */
export async function listEvaluations(db: Db, orgId: string, promptId: string, limit = 50): Promise<EvaluationRecord[]> {
  await promptRevisionOf(db, orgId, promptId);
  return batchesWhere(
    db,
    and(eq(promptBatches.orgId, orgId), eq(promptBatches.promptId, promptId), eq(promptBatches.kind, 'evaluation')),
    limit,
  );
}

/** An evaluation scored over its answered documents: accuracy per field and overall, and what differs. */
export async function evaluationReport(db: Db, orgId: string, evaluationId: string): Promise<EvaluationReport> {
  const evaluation = await getEvaluation(db, orgId, evaluationId);
  const items = await db
    .select({
      documentId: promptBatchItems.documentId,
      documentName: documents.name,
      expected: promptBatchItems.expected,
      answer: promptBatchItems.answer,
    })
    .from(promptBatchItems)
    .innerJoin(documents, eq(documents.id, promptBatchItems.documentId))
    .where(and(eq(promptBatchItems.batchId, evaluationId), eq(promptBatchItems.status, 'succeeded')))
    .orderBy(asc(documents.name), asc(promptBatchItems.documentId));
  const answered = items.filter((i) => i.answer !== null);
  const score = scoreEvaluation(
    answered.map((i) => ({ documentId: i.documentId, expected: i.expected ?? {}, actual: i.answer })),
  );
  const names = new Map(answered.map((i) => [i.documentId, i.documentName]));
  return {
    evaluation,
    score: { ...score, documents: answered.length, complete: evaluation.status !== 'running' },
    differences: score.differences.map((d) => ({ ...d, documentName: names.get(d.documentId) ?? '' })),
  };
}

export interface EvaluationComparison {
  a: EvaluationReport;
  b: EvaluationReport;
  /** Every field scored in either, in a's order then b's new ones, with each side's accuracy (null: not scored there). */
  fields: Array<{ path: string; a: FieldAccuracy | null; b: FieldAccuracy | null; changed: boolean }>;
}

/** Two evaluations of the same prompt (usually two revisions) side by side; a field changed when its accuracy differs. */
export async function compareEvaluations(
  db: Db,
  orgId: string,
  promptId: string,
  aId: string,
  bId: string,
): Promise<EvaluationComparison> {
  const [a, b] = await Promise.all([evaluationReport(db, orgId, aId), evaluationReport(db, orgId, bId)]);
  for (const report of [a, b]) {
    if (report.evaluation.promptId !== promptId) throw notFound(`Evaluation ${report.evaluation.id} of prompt ${promptId}`);
  }
  const paths = [...new Set([...a.score.fields.map((f) => f.path), ...b.score.fields.map((f) => f.path)])];
  const fields = paths.map((path) => {
    const fa = a.score.fields.find((f) => f.path === path) ?? null;
    const fb = b.score.fields.find((f) => f.path === path) ?? null;
    return { path, a: fa, b: fb, changed: fa?.accuracy !== fb?.accuracy };
  });
  return { a, b, fields };
}
