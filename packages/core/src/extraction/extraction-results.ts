import { isDeepStrictEqual } from 'node:util';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { extractionResults, promptRevisions, prompts } from '../db/schema.ts';
import { storedPages } from '../documents/document-text.ts';
import { getDocument } from '../documents/documents.ts';
import { invalidInput, notFound } from '../errors.ts';
import type { Citation } from '../grounding/citation.ts';
import { citeResult } from '../grounding/citations.ts';
import { unchangedProbabilities, type ValueProbabilities } from '../grounding/value-probabilities.ts';
import { newId } from '../ids.ts';
import { type PromptRevision, resolvePromptRevision } from '../prompts/prompts.ts';
import { InvalidSchemaError } from '../schemas/schemas.ts';
import { checkExtractedValue } from './result-check.ts';

/** What a prompt revision answered for a document, and what a person made of it. */
export interface ExtractionResult {
  id: string;
  documentId: string;
  promptId: string;
  promptRevid: string;
  promptVersion: number;
  promptName: string;
  model: string;
  llmResult: Record<string, unknown>;
  /** The result as edited by a person (equal to llmResult until then). */
  updatedLlmResult: Record<string, unknown>;
  isEdited: boolean;
  isVerified: boolean;
  /** Where each leaf of updatedLlmResult is in the document's text, computed whenever it changes. */
  citations: Citation[];
  /** How sure the model was of each value of llmResult, by path, when its provider said; empty otherwise. */
  valueProbabilities: ValueProbabilities;
  createdAt: Date;
  updatedAt: Date;
}

const columns = {
  id: extractionResults.id,
  documentId: extractionResults.documentId,
  promptId: extractionResults.promptId,
  promptRevid: extractionResults.promptRevid,
  promptVersion: extractionResults.promptVersion,
  promptName: promptRevisions.name,
  model: extractionResults.model,
  llmResult: extractionResults.llmResult,
  updatedLlmResult: extractionResults.updatedLlmResult,
  isEdited: extractionResults.isEdited,
  isVerified: extractionResults.isVerified,
  citations: extractionResults.citations,
  valueProbabilities: extractionResults.valueProbabilities,
  createdAt: extractionResults.createdAt,
  updatedAt: extractionResults.updatedAt,
};

const selectResults = (db: Db) =>
  db.select(columns).from(extractionResults).innerJoin(promptRevisions, eq(promptRevisions.id, extractionResults.promptRevid));

const ofDocument = (orgId: string, documentId: string) =>
  and(eq(extractionResults.orgId, orgId), eq(extractionResults.documentId, documentId));

export async function findExtractionResult(
  db: Db,
  orgId: string,
  documentId: string,
  promptRevid: string,
): Promise<ExtractionResult | undefined> {
  const [row] = await selectResults(db).where(and(ofDocument(orgId, documentId), eq(extractionResults.promptRevid, promptRevid)));
  return row;
}

/**
 * The result of a prompt revision (`default`: the default prompt) for a document. With
 * `fallback`, a result of an earlier version of the same prompt stands in when this one has none.
 */
export async function getExtractionResult(
  db: Db,
  orgId: string,
  documentId: string,
  promptRevid: string,
  options: { fallback?: boolean } = {},
): Promise<ExtractionResult> {
  const prompt = await resolvePromptRevision(db, orgId, promptRevid);
  const exact = await findExtractionResult(db, orgId, documentId, prompt.promptRevid);
  if (exact) return exact;
  if (options.fallback) {
    const [older] = await selectResults(db)
      .where(and(ofDocument(orgId, documentId), eq(extractionResults.promptId, prompt.promptId)))
      .orderBy(desc(extractionResults.promptVersion))
      .limit(1);
    if (older) return older;
  }
  throw notFound(
    `A result of prompt revision ${promptRevid} for document ${documentId} (run it with POST llm/run/${documentId}?prompt_revid=${promptRevid})`,
  );
}

/**
 * The newest result of each prompt for a document, in the order the prompts were created; a
 * document that is not the organization's is "not found" rather than one with no results.
 */
export async function listExtractionResults(db: Db, orgId: string, documentId: string): Promise<ExtractionResult[]> {
  await getDocument(db, orgId, documentId);
  return extractionResultsOf(db, orgId, documentId);
}

/** listExtractionResults of a document the caller has just read (no "not found" of its own). */
export async function extractionResultsOf(db: Db, orgId: string, documentId: string): Promise<ExtractionResult[]> {
  const rows = await selectResults(db)
    .innerJoin(prompts, eq(prompts.id, extractionResults.promptId))
    .where(ofDocument(orgId, documentId))
    .orderBy(desc(prompts.isDefault), prompts.createdAt, desc(extractionResults.promptVersion));
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.promptId) && seen.add(r.promptId));
}

/**
 * The citations of a result's values in the document's stored pages. A document without pages
 * yet (its text not extracted, or failed) has every value not found; they are computed again
 * on the next save or edit.
 */
async function citationsFor(
  db: Db,
  documentId: string,
  result: Record<string, unknown>,
  probabilities: ValueProbabilities,
): Promise<Citation[]> {
  return citeResult(await storedPages(db, documentId), result, probabilities);
}

/** Stores a fresh answer, replacing an earlier one of the same revision (and any edits to it). */
export async function saveExtractionResult(
  db: Db,
  orgId: string,
  documentId: string,
  prompt: PromptRevision,
  model: string,
  result: Record<string, unknown>,
  probabilities: ValueProbabilities = {},
): Promise<ExtractionResult> {
  const now = new Date();
  const citations = await citationsFor(db, documentId, result, probabilities);
  const fresh = {
    llmResult: result,
    updatedLlmResult: result,
    isEdited: false,
    isVerified: false,
    model,
    citations,
    valueProbabilities: probabilities,
    updatedAt: now,
  };
  await db
    .insert(extractionResults)
    .values({
      id: newId(),
      orgId,
      documentId,
      promptId: prompt.promptId,
      promptRevid: prompt.promptRevid,
      promptVersion: prompt.promptVersion,
      ...fresh,
      createdAt: now,
    })
    .onConflictDoUpdate({ target: [extractionResults.documentId, extractionResults.promptRevid], set: fresh });
  const saved = await findExtractionResult(db, orgId, documentId, prompt.promptRevid);
  if (!saved) throw notFound(`Document ${documentId}`);
  return saved;
}

/**
 * A person's correction: the new values must satisfy the prompt's schema; `is_edited` says
 * whether they differ from what the model answered.
 */
export async function updateExtractionResult(
  db: Db,
  orgId: string,
  documentId: string,
  promptRevid: string,
  change: { updatedLlmResult: unknown; isVerified?: boolean },
): Promise<ExtractionResult> {
  const prompt = await resolvePromptRevision(db, orgId, promptRevid);
  const current = await getExtractionResult(db, orgId, documentId, prompt.promptRevid);
  const check = await checkExtractedValue(db, orgId, prompt, change.updatedLlmResult);
  if (!check.valid) throw new InvalidSchemaError(check.errors);
  const value = check.value;
  // A verification alone keeps the citations; a changed value is looked for again.
  const citations =
    isDeepStrictEqual(value, current.updatedLlmResult) && current.citations.length > 0
      ? current.citations
      : await citationsFor(db, documentId, value, unchangedProbabilities(current.valueProbabilities, current.llmResult, value));
  await db
    .update(extractionResults)
    .set({
      updatedLlmResult: value,
      citations,
      // jsonb reorders keys, so equality is structural.
      isEdited: !isDeepStrictEqual(value, current.llmResult),
      isVerified: change.isVerified ?? current.isVerified,
      updatedAt: new Date(),
    })
    .where(and(ofDocument(orgId, documentId), eq(extractionResults.promptRevid, prompt.promptRevid)));
  const updated = await findExtractionResult(db, orgId, documentId, prompt.promptRevid);
  if (!updated) throw invalidInput(`The result of ${promptRevid} for document ${documentId} was deleted meanwhile.`);
  return updated;
}

export async function deleteExtractionResult(db: Db, orgId: string, documentId: string, promptRevid: string): Promise<void> {
  const prompt = await resolvePromptRevision(db, orgId, promptRevid);
  const deleted = await db
    .delete(extractionResults)
    .where(and(ofDocument(orgId, documentId), eq(extractionResults.promptRevid, prompt.promptRevid)))
    .returning({ id: extractionResults.id });
  if (deleted.length === 0) throw notFound(`A result of prompt revision ${promptRevid} for document ${documentId}`);
}
