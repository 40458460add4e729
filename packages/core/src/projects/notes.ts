import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { notes, noteVersions, projects } from '../db/schema.ts';
import { DomainError, notFound } from '../errors.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import {
  checkContent,
  checkInstruction,
  checkName,
  checkSource,
  checkVersion,
  type NoteSource,
  summaryOf,
} from './note-rules.ts';
import { getProjectRecord, type ProjectServices } from './projects.ts';

export interface NoteSummary {
  id: string;
  projectId: string;
  name: string;
  standingInstruction: string;
  version: number;
  /** The content's length in characters. */
  size: number;
  updatedAt: Date;
  updatedBy: string;
  createdAt: Date;
  createdBy: string;
}

export interface NoteRecord extends NoteSummary {
  orgId: string;
  content: string;
}

/** A note's name is already used in its project (case-insensitively); `existing` is that note. */
export class DuplicateNoteName extends DomainError {
  readonly existing: NoteSummary;

  constructor(existing: NoteSummary) {
    super(
      'conflict',
      `A note named "${existing.name}" already exists in this project (note_id ${existing.id}). Update that note instead (rewrite_note, or PUT /v0/orgs/{organization_id}/projects/${existing.projectId}/notes/${existing.id}), or choose another name.`,
    );
    this.name = 'DuplicateNoteName';
    this.existing = existing;
  }
}

/** An update was based on a version that is no longer the current one; nothing was written. `current` is the note now. */
export class StaleNoteVersion extends DomainError {
  readonly current: NoteRecord;
  readonly baseVersion: number;

  constructor(current: NoteRecord, baseVersion: number) {
    super(
      'conflict',
      `The note "${current.name}" changed since version ${baseVersion} (it is at version ${current.version} now); nothing was written. Read the current version, apply your change to it and send base_version ${current.version}.`,
    );
    this.name = 'StaleNoteVersion';
    this.current = current;
    this.baseVersion = baseVersion;
  }
}

const sizeOf = sql<number>`char_length(${notes.content})`.mapWith(Number);

const summaryColumns = {
  id: notes.id,
  projectId: notes.projectId,
  name: notes.name,
  standingInstruction: notes.standingInstruction,
  version: notes.version,
  size: sizeOf,
  updatedAt: notes.updatedAt,
  updatedBy: notes.updatedBy,
  createdAt: notes.createdAt,
  createdBy: notes.createdBy,
};

const recordColumns = { ...summaryColumns, orgId: notes.orgId, content: notes.content };

const inProject = (orgId: string, projectId: string) => and(eq(notes.orgId, orgId), eq(notes.projectId, projectId));

/** The project's notes by name, without their content. */
export async function listNotes(db: Db, orgId: string, projectId: string): Promise<NoteSummary[]> {
  await getProjectRecord(db, orgId, projectId);
  return db
    .select(summaryColumns)
    .from(notes)
    .where(inProject(orgId, projectId))
    .orderBy(asc(sql`lower(${notes.name})`), asc(notes.id));
}

/** A note of the project with its current content; one of another project or organization is not found. */
export async function getNote(db: Db, orgId: string, projectId: string, noteId: string): Promise<NoteRecord> {
  const [row] = await db
    .select(recordColumns)
    .from(notes)
    .where(and(eq(notes.id, noteId), inProject(orgId, projectId)));
  if (!row) throw notFound(`Note ${noteId}`);
  return row;
}

/** The project's note of that name (trimmed, whatever its case), or null. */
export async function findNoteByName(db: Db, orgId: string, projectId: string, name: string): Promise<NoteSummary | null> {
  const [row] = await db
    .select(summaryColumns)
    .from(notes)
    .where(and(inProject(orgId, projectId), sql`lower(${notes.name}) = lower(${name.trim()})`));
  return row ?? null;
}

/** Locks the project's row for the transaction: note writes of one project go one at a time. */
async function lockProject(tx: Db, orgId: string, projectId: string): Promise<void> {
  const [row] = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.orgId, orgId)))
    .for('no key update');
  if (!row) throw notFound(`Project ${projectId}`);
}

async function assertNameFree(tx: Db, orgId: string, projectId: string, name: string, exceptId?: string): Promise<void> {
  const taken = await findNoteByName(tx, orgId, projectId, name);
  if (taken && taken.id !== exceptId) throw new DuplicateNoteName(taken);
}

/** Creates a note at version 1; a name already used in the project is a DuplicateNoteName naming that note. */
export async function createNote(
  s: ProjectServices,
  access: OrgAccess,
  projectId: string,
  input: { name: string; content: string; standingInstruction?: string; source: NoteSource; summary?: string },
): Promise<NoteRecord> {
  const name = checkName(input.name);
  const content = checkContent(input.content);
  const standingInstruction = checkInstruction(input.standingInstruction ?? '');
  const source = checkSource(input.source);
  const actor = await actorName(s.db, access);
  const id = newId();
  const note = await s.db.transaction(async (tx) => {
    await lockProject(tx, access.orgId, projectId);
    await assertNameFree(tx, access.orgId, projectId, name);
    await tx.insert(notes).values({
      id,
      orgId: access.orgId,
      projectId,
      name,
      standingInstruction,
      content,
      version: 1,
      createdBy: actor,
      updatedBy: actor,
    });
    await tx.insert(noteVersions).values({
      noteId: id,
      version: 1,
      content,
      source,
      summary: summaryOf(input.summary),
      createdBy: actor,
    });
    return getNote(tx, access.orgId, projectId, id);
  });
  s.events.publish({
    type: 'note.created',
    orgId: access.orgId,
    projectId,
    noteId: id,
    version: 1,
    actor: access.userId,
    source,
    at: new Date().toISOString(),
  });
  return note;
}

/**
 * Changes a note. New content makes a new version; a new name or standing instruction does not.
 * With `baseVersion`, the change is written only if the note is still at that version, otherwise
 * StaleNoteVersion carries the note as it is now; of two writers with the same base, one wins.
 */
export async function updateNote(
  s: ProjectServices,
  access: OrgAccess,
  projectId: string,
  noteId: string,
  input: {
    name?: string;
    content?: string;
    standingInstruction?: string;
    baseVersion?: number;
    source: NoteSource;
    summary?: string;
  },
): Promise<NoteRecord> {
  const name = input.name === undefined ? undefined : checkName(input.name);
  const content = input.content === undefined ? undefined : checkContent(input.content);
  const standingInstruction = input.standingInstruction === undefined ? undefined : checkInstruction(input.standingInstruction);
  const baseVersion = input.baseVersion === undefined ? undefined : checkVersion('base_version', input.baseVersion);
  const source = checkSource(input.source);
  const actor = await actorName(s.db, access);
  type Outcome = { stale: NoteRecord } | { note: NoteRecord; changed: boolean };
  const outcome = await s.db.transaction(async (tx): Promise<Outcome> => {
    await lockProject(tx, access.orgId, projectId);
    const [locked] = await tx
      .select({ id: notes.id })
      .from(notes)
      .where(and(eq(notes.id, noteId), inProject(access.orgId, projectId)))
      .for('update');
    if (!locked) throw notFound(`Note ${noteId}`);
    const current = await getNote(tx, access.orgId, projectId, noteId);
    if (baseVersion !== undefined && baseVersion !== current.version) return { stale: current };
    const set: Partial<typeof notes.$inferInsert> = {};
    if (name !== undefined && name !== current.name) {
      await assertNameFree(tx, access.orgId, projectId, name, noteId);
      set.name = name;
    }
    if (standingInstruction !== undefined && standingInstruction !== current.standingInstruction) {
      set.standingInstruction = standingInstruction;
    }
    const newContent = content !== undefined && content !== current.content;
    if (newContent) {
      set.content = content;
      set.version = current.version + 1;
    }
    if (Object.keys(set).length === 0) return { note: current, changed: false };
    // Conditional on the version read: even without the lock, a concurrent writer cannot be overwritten.
    const written = await tx
      .update(notes)
      .set({ ...set, updatedBy: actor, updatedAt: new Date() })
      .where(and(eq(notes.id, noteId), eq(notes.version, current.version)))
      .returning({ id: notes.id });
    if (written.length === 0) return { stale: await getNote(tx, access.orgId, projectId, noteId) };
    if (newContent) {
      await tx.insert(noteVersions).values({
        noteId,
        version: current.version + 1,
        content: content as string,
        source,
        summary: summaryOf(input.summary),
        createdBy: actor,
      });
    }
    return { note: await getNote(tx, access.orgId, projectId, noteId), changed: true };
  });
  if ('stale' in outcome) throw new StaleNoteVersion(outcome.stale, baseVersion ?? outcome.stale.version);
  if (outcome.changed) {
    s.events.publish({
      type: 'note.updated',
      orgId: access.orgId,
      projectId,
      noteId,
      version: outcome.note.version,
      actor: access.userId,
      source,
      at: new Date().toISOString(),
    });
  }
  return outcome.note;
}

/** Deletes a note and its versions. */
export async function deleteNote(s: ProjectServices, access: OrgAccess, projectId: string, noteId: string): Promise<void> {
  const note = await s.db.transaction(async (tx) => {
    await lockProject(tx, access.orgId, projectId);
    const current = await getNote(tx, access.orgId, projectId, noteId);
    await tx.delete(notes).where(and(eq(notes.id, noteId), inProject(access.orgId, projectId)));
    return current;
  });
  s.events.publish({
    type: 'note.deleted',
    orgId: access.orgId,
    projectId,
    noteId,
    version: note.version,
    actor: access.userId,
    at: new Date().toISOString(),
  });
}
