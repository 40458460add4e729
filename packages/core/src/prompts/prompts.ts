import { and, arrayContains, arrayOverlaps, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageWithTotal, totalColumn } from '../db/page-with-total.ts';
import { promptRevisions, prompts } from '../db/schema.ts';
import { checkTagIds, getDocument } from '../documents/documents.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import { settleExtractionStates } from '../extraction/extraction-state.ts';
import { documentsShapedByPrompts } from '../extraction/prompt-outcomes.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import { findSchemaVersion } from '../schemas/schemas.ts';
import { escapeLike } from '../sql-text.ts';
import { checkTagsExist } from '../tags/tags.ts';
import { isLatestPromptRevision } from './latest-revision.ts';

/** One revision of a prompt (prompt_id stable, prompt_revid per version), as DocRouter names them. */
export interface PromptRevision {
  promptRevid: string;
  promptId: string;
  promptVersion: number;
  name: string;
  content: string;
  /** The schema its extraction must satisfy, pinned to a version; null for free-form answers. */
  schemaId: string | null;
  schemaVersion: number | null;
  /** null: the organization's default model. */
  model: string | null;
  tagIds: string[];
  createdAt: Date;
  createdBy: string;
}

export interface PromptFields {
  name: string;
  content: string;
  schemaId?: string | null;
  schemaVersion?: number | null;
  model?: string | null;
  tagIds?: string[];
}

const MAX_CONTENT = 100_000;
const MODEL_ID = /^[\w.:/@-]{1,200}$/;

const columns = {
  promptRevid: promptRevisions.id,
  promptId: promptRevisions.promptId,
  promptVersion: promptRevisions.version,
  name: promptRevisions.name,
  content: promptRevisions.content,
  schemaId: promptRevisions.schemaId,
  schemaVersion: promptRevisions.schemaVersion,
  model: promptRevisions.model,
  tagIds: promptRevisions.tagIds,
  createdAt: promptRevisions.createdAt,
  createdBy: promptRevisions.createdBy,
};

type Checked = Omit<PromptRevision, 'promptRevid' | 'promptId' | 'promptVersion' | 'createdAt' | 'createdBy'>;

/** The fields as stored: the schema resolved to a version of this org, the tags known, the rest in bounds. */
async function checkFields(db: Db, orgId: string, fields: PromptFields): Promise<Checked> {
  const name = fields.name.trim();
  if (name.length === 0 || name.length > 200) throw invalidInput('A prompt name must have 1 to 200 characters.');
  if (fields.content.length > MAX_CONTENT) {
    throw invalidInput(`The prompt content has ${fields.content.length} characters; the limit is ${MAX_CONTENT}.`);
  }
  if (fields.model && !MODEL_ID.test(fields.model)) {
    throw invalidInput(`"${fields.model.slice(0, 60)}" is not a model id; use provider:model, e.g. openai:gpt-4.1-mini.`);
  }
  if (fields.schemaVersion != null && !fields.schemaId) throw invalidInput('schema_version needs a schema_id.');
  const schema = fields.schemaId
    ? await findSchemaVersion(db, orgId, fields.schemaId, fields.schemaVersion ?? undefined)
    : undefined;
  const tagIds = checkTagIds(fields.tagIds ?? []);
  await checkTagsExist(db, orgId, tagIds);
  return {
    name,
    content: fields.content,
    schemaId: schema?.schemaId ?? null,
    schemaVersion: schema?.schemaVersion ?? null,
    model: fields.model || null,
    tagIds,
  };
}

const sameFields = (a: Checked, b: Checked) =>
  a.name === b.name &&
  a.content === b.content &&
  a.schemaId === b.schemaId &&
  a.schemaVersion === b.schemaVersion &&
  a.model === b.model &&
  JSON.stringify([...a.tagIds].sort()) === JSON.stringify([...b.tagIds].sort());

async function addRevision(db: Db, promptId: string, fields: Checked, createdBy: string): Promise<PromptRevision> {
  // Locking the prompt row gives concurrent changes consecutive versions.
  const [locked] = await db.select({ id: prompts.id }).from(prompts).where(eq(prompts.id, promptId)).for('update');
  if (!locked) throw notFound(`Prompt ${promptId}`);
  const [last] = await db
    .select({ version: sql<number>`coalesce(max(${promptRevisions.version}), 0)::int` })
    .from(promptRevisions)
    .where(eq(promptRevisions.promptId, promptId));
  await db.update(prompts).set({ name: fields.name }).where(eq(prompts.id, promptId));
  const [row] = await db
    .insert(promptRevisions)
    .values({ id: newId(), promptId, version: (last?.version ?? 0) + 1, ...fields, createdBy })
    .returning(columns);
  if (!row) throw new Error('insert into prompt_revisions returned no row');
  return row;
}

/** Creates a prompt, or adds a version to the org's prompt of the same name (as DocRouter does). */
export async function createPrompt(db: Db, access: OrgAccess, fields: PromptFields): Promise<PromptRevision> {
  const checked = await checkFields(db, access.orgId, fields);
  const createdBy = await actorName(db, access);
  return db.transaction(async (tx) => {
    await tx
      .insert(prompts)
      .values({ id: newId(), orgId: access.orgId, name: checked.name })
      .onConflictDoNothing({ target: [prompts.orgId, prompts.name] });
    const [existing] = await tx
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.orgId, access.orgId), eq(prompts.name, checked.name)));
    if (!existing) throw new Error('the prompt row vanished inside its transaction');
    return addRevision(tx, existing.id, checked, createdBy);
  });
}

const fromOrg = (orgId: string) => eq(prompts.orgId, orgId);

export async function getPromptRevision(db: Db, orgId: string, promptRevid: string): Promise<PromptRevision> {
  const [row] = await db
    .select(columns)
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(fromOrg(orgId), eq(promptRevisions.id, promptRevid)));
  if (!row) throw notFound(`Prompt revision ${promptRevid}`);
  return row;
}

/**
 * Who created a prompt (the author of its first version), by id or by the name a create would
 * version; null when there is no such prompt. A run allowed to change only what it made asks this.
 */
export async function promptCreator(db: Db, orgId: string, ref: { promptId: string } | { name: string }): Promise<string | null> {
  const which = 'promptId' in ref ? eq(prompts.id, ref.promptId) : eq(prompts.name, ref.name.trim());
  const [row] = await db
    .select({ createdBy: promptRevisions.createdBy })
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(fromOrg(orgId), which, eq(promptRevisions.version, 1)));
  return row?.createdBy ?? null;
}

async function latestRevision(db: Db, orgId: string, promptId: string): Promise<PromptRevision> {
  const [row] = await db
    .select(columns)
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(fromOrg(orgId), eq(prompts.id, promptId)))
    .orderBy(desc(promptRevisions.version))
    .limit(1);
  if (!row) throw notFound(`Prompt ${promptId}`);
  return row;
}

/**
 * A revision of the organization's prompt: `promptRevid`, or the latest when omitted. Another
 * organization's prompt is not found, and so is a revision of another prompt.
 */
export async function promptRevisionOf(db: Db, orgId: string, promptId: string, promptRevid?: string): Promise<PromptRevision> {
  if (promptRevid === undefined) return latestRevision(db, orgId, promptId);
  const [row] = await db
    .select(columns)
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(fromOrg(orgId), eq(prompts.id, promptId), eq(promptRevisions.id, promptRevid)));
  if (row) return row;
  await latestRevision(db, orgId, promptId);
  throw notFound(`Revision ${promptRevid} of prompt ${promptId}`);
}

/** A prompt in a list: its latest revision, and whether it is an auto-create proposal awaiting review. */
export interface ListedPrompt extends PromptRevision {
  /** The document whose auto-create proposed this prompt, until a person accepts it; else null. */
  autoCreatePendingDocumentId: string | null;
}

/**
 * The latest revision of each prompt, most recently changed first; `tagIds` keeps prompts having
 * all of them, `documentId` the prompts that run on that document.
 */
export async function listPrompts(
  db: Db,
  orgId: string,
  query: { skip: number; limit: number; nameSearch?: string; tagIds?: string[]; documentId?: string },
): Promise<{ prompts: ListedPrompt[]; total: number }> {
  await ensureDefaultPrompt(db, orgId);
  const conditions = [fromOrg(orgId), isLatestPromptRevision];
  if (query.documentId) {
    const { tagIds } = await getDocument(db, orgId, query.documentId);
    const forDocument = tagIds.length
      ? or(eq(prompts.isDefault, true), arrayOverlaps(promptRevisions.tagIds, tagIds))
      : eq(prompts.isDefault, true);
    if (forDocument) conditions.push(forDocument);
  }
  if (query.nameSearch) conditions.push(ilike(promptRevisions.name, `%${escapeLike(query.nameSearch)}%`));
  if (query.tagIds?.length) conditions.push(arrayContains(promptRevisions.tagIds, query.tagIds));
  const where = and(...conditions);
  const counted = db
    .select({ n: count() })
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(where);
  const rows = await db
    .select({
      ...columns,
      autoCreatePendingDocumentId: prompts.autoCreatePendingDocumentId,
      total: totalColumn(counted),
    })
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(where)
    .orderBy(desc(promptRevisions.createdAt), desc(promptRevisions.id))
    .offset(query.skip)
    .limit(query.limit);
  const page = await pageWithTotal(rows, query.skip, () => counted);
  return { prompts: page.rows, total: page.total };
}

export async function listPromptVersions(db: Db, orgId: string, promptId: string): Promise<PromptRevision[]> {
  const rows = await db
    .select(columns)
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(and(fromOrg(orgId), eq(prompts.id, promptId)))
    .orderBy(desc(promptRevisions.version));
  if (rows.length === 0) throw notFound(`Prompt ${promptId}`);
  return rows;
}

/**
 * A new version of the prompt with the changes; omitted fields keep their values, and
 * `changed` is false (nothing written) when the changes change nothing.
 */
export async function updatePrompt(
  db: Db,
  access: OrgAccess,
  promptId: string,
  changes: Partial<PromptFields>,
): Promise<{ revision: PromptRevision; changed: boolean }> {
  const current = await latestRevision(db, access.orgId, promptId);
  const schemaChanged = changes.schemaId !== undefined && changes.schemaId !== current.schemaId;
  const checked = await checkFields(db, access.orgId, {
    name: changes.name ?? current.name,
    content: changes.content ?? current.content,
    schemaId: changes.schemaId === undefined ? current.schemaId : changes.schemaId,
    // A new schema without a version means its latest; the same schema keeps its pinned version.
    schemaVersion: changes.schemaVersion !== undefined ? changes.schemaVersion : schemaChanged ? null : current.schemaVersion,
    model: changes.model === undefined ? current.model : changes.model,
    tagIds: changes.tagIds ?? current.tagIds,
  });
  if (sameFields(checked, current)) return { revision: current, changed: false };
  if (checked.name !== current.name) {
    const [clash] = await db
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(fromOrg(access.orgId), eq(prompts.name, checked.name)));
    if (clash) throw conflict(`Another prompt is already named "${checked.name}"; choose another name.`);
  }
  const createdBy = await actorName(db, access);
  const revision = await db.transaction((tx) => addRevision(tx, promptId, checked, createdBy));
  return { revision, changed: true };
}

export async function deletePrompt(db: Db, orgId: string, promptId: string): Promise<void> {
  const [found] = await db
    .select({ isDefault: prompts.isDefault })
    .from(prompts)
    .where(and(fromOrg(orgId), eq(prompts.id, promptId)));
  if (!found) throw notFound(`Prompt ${promptId}`);
  if (found.isDefault) {
    throw conflict('The default prompt runs on every document and cannot be deleted; edit it to change what it asks.');
  }
  // Its outcomes go with it; the documents whose state they decided are decided again.
  const shaped = await documentsShapedByPrompts(db, [promptId]);
  await db.delete(prompts).where(and(fromOrg(orgId), eq(prompts.id, promptId)));
  await settleExtractionStates(db, shaped);
}

/** DocRouter's name for the organization's default prompt wherever a prompt_revid is expected. */
export const DEFAULT_PROMPT_REVID = 'default';

export const DEFAULT_PROMPT = Object.freeze({
  name: 'Document Summary',
  content:
    'Summarize this document for someone deciding what to do with it. Answer with a JSON object with "document_type" (what kind of document it is, in a few words), "summary" (two to four sentences) and "key_facts" (an array of at most eight short strings: parties, dates, amounts, identifiers).',
});

/**
 * The organization's default prompt (created on first use): it runs on every document after its
 * text is ready, and `default` names its latest revision.
 */
export async function ensureDefaultPrompt(db: Db, orgId: string): Promise<PromptRevision> {
  const existing = await defaultPromptId(db, orgId);
  if (existing) return latestRevision(db, orgId, existing);
  return db.transaction(async (tx) => {
    // Two processes may get here at once; the partial unique index lets one row win.
    const [taken] = await tx
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(fromOrg(orgId), eq(prompts.name, DEFAULT_PROMPT.name)));
    const name = taken ? `${DEFAULT_PROMPT.name} (default)` : DEFAULT_PROMPT.name;
    const id = newId();
    const inserted = await tx
      .insert(prompts)
      .values({ id, orgId, name, isDefault: true })
      .onConflictDoNothing()
      .returning({ id: prompts.id });
    if (inserted.length === 0) {
      const winner = await defaultPromptId(tx, orgId);
      if (!winner) throw conflict(`A prompt named "${name}" is in the way of the default prompt; rename it and try again.`);
      return latestRevision(tx, orgId, winner);
    }
    const fields = { name, content: DEFAULT_PROMPT.content, schemaId: null, schemaVersion: null, model: null, tagIds: [] };
    return addRevision(tx, id, fields, 'docagent');
  });
}

async function defaultPromptId(db: Db, orgId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(fromOrg(orgId), eq(prompts.isDefault, true)));
  return row?.id;
}

/** A prompt revision by id, `default` meaning the default prompt's latest. */
export async function resolvePromptRevision(db: Db, orgId: string, promptRevid: string): Promise<PromptRevision> {
  return promptRevid === DEFAULT_PROMPT_REVID ? ensureDefaultPrompt(db, orgId) : getPromptRevision(db, orgId, promptRevid);
}

/**
 * The prompts that run on a document with these tags: the default prompt, then the latest
 * revision of every prompt sharing a tag with it, oldest first.
 */
export async function promptsForDocument(db: Db, orgId: string, documentTagIds: string[]): Promise<PromptRevision[]> {
  const defaultPrompt = await ensureDefaultPrompt(db, orgId);
  if (documentTagIds.length === 0) return [defaultPrompt];
  const tagged = await db
    .select(columns)
    .from(promptRevisions)
    .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
    .where(
      and(
        fromOrg(orgId),
        isLatestPromptRevision,
        eq(prompts.isDefault, false),
        // A proposal awaiting review runs nowhere else until it is accepted.
        isNull(prompts.autoCreatePendingDocumentId),
        arrayOverlaps(promptRevisions.tagIds, documentTagIds),
      ),
    )
    .orderBy(prompts.createdAt, prompts.id);
  return [defaultPrompt, ...tagged];
}
