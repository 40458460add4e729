import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from './db/database.ts';
import { datasets, documents, projects, users } from './db/schema.ts';

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

/** The tables whose rows have a name people know them by, for the kinds of subject the agent talks about. */
const NAMED = { document: documents, dataset: datasets, project: projects } as const;
type NamedKind = keyof typeof NAMED;
const isNamedKind = (kind: string): kind is NamedKind => Object.hasOwn(NAMED, kind);

/**
 * The names of the organization's documents, datasets and projects among `subjects`, keyed by
 * `kind:id` (see subjectKey); a kind without names, a deleted subject and another organization's
 * are absent.
 */
export async function subjectNames(
  db: Db,
  orgId: string,
  subjects: Iterable<{ kind: string; id: string }>,
): Promise<Map<string, string>> {
  const byKind = new Map<NamedKind, string[]>();
  for (const { kind, id } of subjects) {
    if (!isNamedKind(kind)) continue;
    const ids = byKind.get(kind) ?? [];
    ids.push(id);
    byKind.set(kind, ids);
  }
  const named = new Map<string, string>();
  await Promise.all(
    [...byKind].map(async ([kind, ids]) => {
      for (const [id, name] of await namesIn(db, NAMED[kind], orgId, ids)) named.set(subjectKey({ kind, id }), name);
    }),
  );
  return named;
}

export const subjectKey = (subject: { kind: string; id: string }): string => `${subject.kind}:${subject.id}`;

async function namesIn(
  db: Db,
  table: (typeof NAMED)[NamedKind],
  orgId: string,
  rowIds: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...new Set(rowIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(eq(table.orgId, orgId), inArray(table.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}
