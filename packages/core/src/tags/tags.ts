import { and, arrayContains, asc, count, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageOfTable } from '../db/page-with-total.ts';
import { documents, organizations, promptRevisions, prompts, tags } from '../db/schema.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { isLatestPromptRevision } from '../prompts/latest-revision.ts';
import { escapeLike } from '../sql-text.ts';

export interface TagRecord {
  id: string;
  orgId: string;
  name: string;
  color: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}

export const TAG_LIMITS = { nameLength: 64, descriptionLength: 500 };

/** Colors for tags created without one, picked from the name so a name always gets the same color. */
const PALETTE = ['#4f46e5', '#0ea5e9', '#10b981', '#84cc16', '#f59e0b', '#f97316', '#ef4444', '#ec4899', '#8b5cf6', '#14b8a6'];

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function checkTagName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > TAG_LIMITS.nameLength) {
    throw invalidInput(`Tag name "${trimmed.slice(0, 40)}" has ${trimmed.length} characters; use 1 to ${TAG_LIMITS.nameLength}.`);
  }
  return trimmed;
}

function checkColor(color: string): string {
  if (!HEX_COLOR.test(color)) {
    throw invalidInput(`Tag color "${color.slice(0, 40)}" is not a CSS hex color; use #rgb or #rrggbb, such as #4f46e5.`);
  }
  return color.toLowerCase();
}

function checkDescription(description: string): string {
  if (description.length > TAG_LIMITS.descriptionLength) {
    throw invalidInput(
      `Tag description has ${description.length} characters; at most ${TAG_LIMITS.descriptionLength} are allowed.`,
    );
  }
  return description;
}

function paletteColor(name: string): string {
  let hash = 0;
  for (const char of name.toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] as string;
}

/**
 * Serializes tag writes of one organization, so that two requests cannot both pass the
 * case-insensitive name check. NO KEY UPDATE leaves inserts that reference the org unblocked.
 */
async function lockOrgTags(tx: Db, orgId: string): Promise<void> {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('no key update');
}

async function assertNameFree(tx: Db, orgId: string, name: string, exceptTagId?: string): Promise<void> {
  const conditions = [eq(tags.orgId, orgId), sql`lower(${tags.name}) = lower(${name})`];
  if (exceptTagId) conditions.push(ne(tags.id, exceptTagId));
  const [taken] = await tx
    .select({ name: tags.name })
    .from(tags)
    .where(and(...conditions))
    .limit(1);
  if (taken) throw conflict(`A tag named "${taken.name}" already exists; choose another name or use that tag.`);
}

export async function createTag(
  db: Db,
  orgId: string,
  input: { name: string; color?: string; description?: string },
): Promise<TagRecord> {
  const name = checkTagName(input.name);
  const color = input.color === undefined ? paletteColor(name) : checkColor(input.color);
  const description = checkDescription(input.description ?? '');
  return db.transaction(async (tx) => {
    await lockOrgTags(tx, orgId);
    await assertNameFree(tx, orgId, name);
    const [row] = await tx.insert(tags).values({ id: newId(), orgId, name, color, description }).returning();
    if (!row) throw new Error('inserting a tag returned no row');
    return row;
  });
}

export async function getTag(db: Db, orgId: string, tagId: string): Promise<TagRecord> {
  const [row] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.id, tagId), eq(tags.orgId, orgId)));
  if (!row) throw notFound(`Tag ${tagId}`);
  return row;
}

export interface TagListQuery {
  skip: number;
  limit: number;
  nameSearch?: string;
}

/** A page of an organization's tags, by name, with the total matching count. */
export async function listTags(db: Db, orgId: string, query: TagListQuery): Promise<{ tags: TagRecord[]; total: number }> {
  const conditions = [eq(tags.orgId, orgId)];
  if (query.nameSearch) conditions.push(ilike(tags.name, `%${escapeLike(query.nameSearch)}%`));
  const where = and(...conditions);
  const page = await pageOfTable(db, tags, where, [sql`lower(${tags.name})`, asc(tags.name), asc(tags.id)], query);
  return { tags: page.rows, total: page.total };
}

/** Changes what differs from the tag as it is; a request that changes nothing leaves updatedAt alone. */
export async function updateTag(
  db: Db,
  orgId: string,
  tagId: string,
  changes: { name?: string; color?: string; description?: string },
): Promise<TagRecord> {
  const name = changes.name === undefined ? undefined : checkTagName(changes.name);
  const color = changes.color === undefined ? undefined : checkColor(changes.color);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  return db.transaction(async (tx) => {
    await lockOrgTags(tx, orgId);
    const current = await getTag(tx, orgId, tagId);
    const set: Partial<typeof tags.$inferInsert> = {};
    if (name !== undefined && name !== current.name) set.name = name;
    if (color !== undefined && color !== current.color) set.color = color;
    if (description !== undefined && description !== current.description) set.description = description;
    if (Object.keys(set).length === 0) return current;
    if (set.name !== undefined) await assertNameFree(tx, orgId, set.name, tagId);
    const [row] = await tx
      .update(tags)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(tags.id, tagId), eq(tags.orgId, orgId)))
      .returning();
    if (!row) throw notFound(`Tag ${tagId}`);
    return row;
  });
}

const MAX_NAMED_USERS = 5;

/** "documents a.pdf, b.pdf and prompt "Invoice fields"", naming at most five. */
function describeUsers(documentNames: string[], documentCount: number, promptNames: string[], promptCount: number): string {
  const docs = documentNames.slice(0, MAX_NAMED_USERS);
  const promptsNamed = promptNames.slice(0, MAX_NAMED_USERS - docs.length);
  const parts: string[] = [];
  if (docs.length > 0) parts.push(`${docs.length === 1 ? 'document' : 'documents'} ${docs.join(', ')}`);
  if (promptsNamed.length > 0) {
    parts.push(`${promptsNamed.length === 1 ? 'prompt' : 'prompts'} ${promptsNamed.map((n) => `"${n}"`).join(', ')}`);
  }
  const more = documentCount + promptCount - docs.length - promptsNamed.length;
  if (more > 0) parts.push(`${more} more`);
  return parts.join(' and ');
}

/** Deletes a tag that no document or prompt revision of the organization uses. */
export async function deleteTag(db: Db, orgId: string, tagId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOrgTags(tx, orgId);
    const tag = await getTag(tx, orgId, tagId);
    const taggedDocuments = and(eq(documents.orgId, orgId), arrayContains(documents.tagIds, [tagId]));
    const taggedPrompts = and(eq(prompts.orgId, orgId), isLatestPromptRevision, arrayContains(promptRevisions.tagIds, [tagId]));
    // One after another: a transaction holds a single connection.
    const docRows = await tx
      .select({ name: documents.name })
      .from(documents)
      .where(taggedDocuments)
      .orderBy(asc(documents.name))
      .limit(MAX_NAMED_USERS);
    const [docCount] = await tx.select({ n: count() }).from(documents).where(taggedDocuments);
    const promptRows = await tx
      .selectDistinct({ name: prompts.name })
      .from(promptRevisions)
      .innerJoin(prompts, eq(prompts.id, promptRevisions.promptId))
      .where(taggedPrompts)
      .orderBy(asc(prompts.name));
    const documentCount = docCount?.n ?? 0;
    if (documentCount > 0 || promptRows.length > 0) {
      const users = describeUsers(
        docRows.map((r) => r.name),
        documentCount,
        promptRows.map((r) => r.name),
        promptRows.length,
      );
      throw conflict(`Tag "${tag.name}" is used by ${users}; remove it from them first.`);
    }
    await tx.delete(tags).where(and(eq(tags.id, tagId), eq(tags.orgId, orgId)));
  });
}

/** Throws invalid input naming every id that is not a tag of the organization. */
export async function checkTagsExist(db: Db, orgId: string, tagIds: string[]): Promise<void> {
  const wanted = [...new Set(tagIds)];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.orgId, orgId), inArray(tags.id, wanted)));
  const known = new Set(found.map((r) => r.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const list = unknown.map((id) => `"${id.slice(0, 64)}"`).join(', ');
    const what = unknown.length === 1 ? `Tag id ${list} is not a tag` : `Tag ids ${list} are not tags`;
    throw invalidInput(`${what} of this organization; create the tags first or use the ids of existing ones.`);
  }
}
