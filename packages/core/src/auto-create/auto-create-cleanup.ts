import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { promptRevisions, prompts, schemaRevisions, schemas } from '../db/schema.ts';
import { settleExtractionStates } from '../extraction/extraction-state.ts';
import { documentsShapedByPrompts, forgetOutcomesOfRevisions } from '../extraction/prompt-outcomes.ts';

/**
 * The name an auto-create run acts under (a revision's created_by). Every schema and prompt
 * revision the run writes carries it, in the same statement that writes it, so what a run
 * created can always be found again, even after the worker died between two statements.
 */
export const autoCreateActor = (documentId: string) => `auto-create (document ${documentId})`;

export interface CleanupCount {
  prompts: number;
  schemas: number;
}

/**
 * Deletes what the auto-create runs of a document created: prompts and schemas it made (all
 * their versions, and with them the extraction results of those prompts), and versions it
 * added to existing ones. A schema version a surviving prompt still uses is kept, since deleting
 * it would break that prompt.
 */
export async function deleteAutoCreated(db: Db, orgId: string, documentId: string): Promise<CleanupCount> {
  const actor = autoCreateActor(documentId);
  const ownPrompts = db.select({ id: prompts.id }).from(prompts).where(eq(prompts.orgId, orgId));
  const madeByRun = and(
    eq(prompts.orgId, orgId),
    sql`exists (select 1 from ${promptRevisions} r where r.prompt_id = ${prompts.id} and r.version = 1 and r.created_by = ${actor})`,
  );
  // What the run's extractions did to documents' states is undone with them (extraction-state.ts).
  const shaped = await documentsShapedByPrompts(db, db.select({ id: prompts.id }).from(prompts).where(madeByRun));
  const createdPrompts = await db.delete(prompts).where(madeByRun).returning({ id: prompts.id });
  const addedPromptVersions = await db
    .delete(promptRevisions)
    .where(and(eq(promptRevisions.createdBy, actor), inArray(promptRevisions.promptId, ownPrompts)))
    .returning({ id: promptRevisions.id });
  shaped.push(
    ...(await forgetOutcomesOfRevisions(
      db,
      addedPromptVersions.map((r) => r.id),
    )),
  );
  await settleExtractionStates(db, shaped);

  const ownSchemas = db.select({ id: schemas.id }).from(schemas).where(eq(schemas.orgId, orgId));
  const createdSchemas = await db
    .delete(schemas)
    .where(
      and(
        eq(schemas.orgId, orgId),
        sql`exists (select 1 from ${schemaRevisions} r where r.schema_id = ${schemas.id} and r.version = 1 and r.created_by = ${actor})`,
        sql`not exists (select 1 from ${promptRevisions} p where p.schema_id = ${schemas.id})`,
      ),
    )
    .returning({ id: schemas.id });
  await db
    .delete(schemaRevisions)
    .where(
      and(
        eq(schemaRevisions.createdBy, actor),
        inArray(schemaRevisions.schemaId, ownSchemas),
        sql`not exists (select 1 from ${promptRevisions} p where p.schema_id = ${schemaRevisions.schemaId} and p.schema_version = ${schemaRevisions.version})`,
      ),
    );
  return { prompts: createdPrompts.length + addedPromptVersions.length, schemas: createdSchemas.length };
}
