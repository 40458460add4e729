import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from './db/database.ts';
import { documents, users } from './db/schema.ts';

/**
 * Names people read in place of ids, looked up in one query per kind for a whole page of records
 * (an audit list, say). An id with no row (a deleted document) is simply absent from the map.
 */

export async function userEmails(db: Db, userIds: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** The organization's documents among these ids, by id; another organization's are never named. */
export async function documentNames(db: Db, orgId: string, documentIds: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(documentIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: documents.id, name: documents.name })
    .from(documents)
    .where(and(eq(documents.orgId, orgId), inArray(documents.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}
