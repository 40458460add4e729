import { createHash } from 'node:crypto';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { documents, extractionResults, promptRevisions, prompts, schemaRevisions } from '../../db/schema.ts';

/**
 * Bumped when the tables made of the same results change (a new column rule, another coercion):
 * tables built by an older build are built again.
 */
const BUILD_VERSION = 1;

/** A prompt with results: the tables it makes in the built-in dataset, and the version of what they hold. */
export interface ResultSource {
  promptId: string;
  promptName: string;
  /** The prompt's latest revision; its schema shapes the tables. */
  latestRevid: string;
  /**
   * `<prompt id>:<digest>` of the latest revision, how many results there are, their latest and
   * summed change times, and the documents' names: a result made, edited or deleted, a new
   * revision, or a renamed document changes it.
   */
  sourceVersion: string;
}

/** The organization's prompts that have results, oldest prompt first, each with the version of its results. */
export async function resultSources(db: Db, orgId: string): Promise<ResultSource[]> {
  const rows = await db
    .select({
      promptId: prompts.id,
      promptName: prompts.name,
      latestRevid: sql<string>`(select r.id from prompt_revisions r where r.prompt_id = ${prompts.id} order by r.version desc limit 1)`,
      results: sql<number>`count(*)::int`,
      lastChange: sql<string>`max(${extractionResults.updatedAt})::text`,
      changeSum: sql<string>`sum(extract(epoch from ${extractionResults.updatedAt}))::text`,
      names: sql<string>`md5(string_agg(${documents.id} || '/' || ${documents.name}, '|' order by ${extractionResults.id}))`,
    })
    .from(prompts)
    .innerJoin(extractionResults, eq(extractionResults.promptId, prompts.id))
    .innerJoin(documents, eq(documents.id, extractionResults.documentId))
    .where(eq(prompts.orgId, orgId))
    .groupBy(prompts.id)
    .orderBy(prompts.createdAt, prompts.id);
  return rows.map((row) => {
    const digest = createHash('sha256')
      .update(JSON.stringify([BUILD_VERSION, row.latestRevid, row.results, row.lastChange, row.changeSum, row.names]))
      .digest('hex')
      .slice(0, 32);
    return {
      promptId: row.promptId,
      promptName: row.promptName,
      latestRevid: row.latestRevid,
      sourceVersion: `${row.promptId}:${digest}`,
    };
  });
}

/** The prompt a table's source version names. */
export const promptIdOf = (sourceVersion: string): string => sourceVersion.slice(0, sourceVersion.indexOf(':'));

/** The JSON Schema (the response_format's `schema`) of a prompt revision; null for a free-form prompt. */
export async function revisionSchema(db: Db, promptRevid: string): Promise<Record<string, unknown> | null> {
  const [row] = await db
    .select({ responseFormat: schemaRevisions.responseFormat })
    .from(promptRevisions)
    .innerJoin(
      schemaRevisions,
      and(eq(schemaRevisions.schemaId, promptRevisions.schemaId), eq(schemaRevisions.version, promptRevisions.schemaVersion)),
    )
    .where(eq(promptRevisions.id, promptRevid));
  const schema = (row?.responseFormat as { json_schema?: { schema?: unknown } } | undefined)?.json_schema?.schema;
  return schema && typeof schema === 'object' && !Array.isArray(schema) ? (schema as Record<string, unknown>) : null;
}

/** One document's result of a prompt. */
export interface LatestResult {
  documentId: string;
  documentName: string;
  value: Record<string, unknown>;
}

const BATCH = 500;

/**
 * Each document's latest result of the prompt (that of the highest revision it has one of, as the
 * document page shows), as a person left it (their edits, else the model's answer), by document id,
 * in batches so that no prompt's results are all in memory.
 */
export async function* latestResults(db: Db, orgId: string, promptId: string): AsyncGenerator<LatestResult[]> {
  let after = '';
  for (;;) {
    const batch = await db
      .selectDistinctOn([extractionResults.documentId], {
        documentId: extractionResults.documentId,
        documentName: documents.name,
        value: extractionResults.updatedLlmResult,
      })
      .from(extractionResults)
      .innerJoin(documents, eq(documents.id, extractionResults.documentId))
      .where(
        and(
          eq(extractionResults.orgId, orgId),
          eq(extractionResults.promptId, promptId),
          gt(extractionResults.documentId, after),
        ),
      )
      .orderBy(extractionResults.documentId, desc(extractionResults.promptVersion))
      .limit(BATCH);
    if (batch.length > 0) yield batch;
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) return;
    after = last.documentId;
  }
}
