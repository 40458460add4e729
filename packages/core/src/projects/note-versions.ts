import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { noteVersions } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { type NoteDiff, unifiedDiff } from './note-diff.ts';
import { checkVersion, type NoteSource } from './note-rules.ts';
import { getNote } from './notes.ts';

/** A note's versions: every change of its text, by a person or the agent, and the diff between two. */

export interface NoteVersionSummary {
  version: number;
  size: number;
  source: NoteSource;
  summary: string;
  createdBy: string;
  createdAt: Date;
}

export interface NoteVersion extends NoteVersionSummary {
  content: string;
}

const versionSummaryColumns = {
  version: noteVersions.version,
  size: sql<number>`char_length(${noteVersions.content})`.mapWith(Number),
  source: noteVersions.source,
  summary: noteVersions.summary,
  createdBy: noteVersions.createdBy,
  createdAt: noteVersions.createdAt,
};

/** The note's versions, newest first, without their content. */
export async function listNoteVersions(db: Db, orgId: string, projectId: string, noteId: string): Promise<NoteVersionSummary[]> {
  await getNote(db, orgId, projectId, noteId);
  return db
    .select(versionSummaryColumns)
    .from(noteVersions)
    .where(eq(noteVersions.noteId, noteId))
    .orderBy(desc(noteVersions.version));
}

/** One version of the note with its content. */
export async function getNoteVersion(
  db: Db,
  orgId: string,
  projectId: string,
  noteId: string,
  version: number,
): Promise<NoteVersion> {
  checkVersion('The version', version);
  await getNote(db, orgId, projectId, noteId);
  const [row] = await db
    .select({ ...versionSummaryColumns, content: noteVersions.content })
    .from(noteVersions)
    .where(and(eq(noteVersions.noteId, noteId), eq(noteVersions.version, version)));
  if (!row) throw notFound(`Version ${version} of note ${noteId}`);
  return row;
}

/** The unified diff from version `from` of the note to version `to` (either order). */
export async function diffNoteVersions(
  db: Db,
  orgId: string,
  projectId: string,
  noteId: string,
  from: number,
  to: number,
): Promise<NoteDiff> {
  checkVersion('from', from);
  checkVersion('to', to);
  const note = await getNote(db, orgId, projectId, noteId);
  const [before, after] = await Promise.all([
    getNoteVersion(db, orgId, projectId, noteId, from),
    getNoteVersion(db, orgId, projectId, noteId, to),
  ]);
  return unifiedDiff(before.content, after.content, {
    before: `${note.name} (version ${from})`,
    after: `${note.name} (version ${to})`,
  });
}
