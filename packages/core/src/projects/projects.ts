import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageWithTotal, totalColumn } from '../db/page-with-total.ts';
import { documents, notes, organizations, projectDocuments, projects } from '../db/schema.ts';
import { conflict, invalidInput, notFound } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { actorName, type OrgAccess } from '../identity/access.ts';
import { newId } from '../ids.ts';
import { escapeLike } from '../sql-text.ts';

/** What writes to projects and notes need: the database, and the bus their events go on. */
export interface ProjectServices {
  db: Db;
  events: EventBus;
}

export interface ProjectRecord {
  id: string;
  orgId: string;
  name: string;
  description: string;
  /** The dataset of the project's tables (its CSV, TSV and XLSX documents); null until it has one. */
  datasetId: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectSummary extends ProjectRecord {
  noteCount: number;
  documentCount: number;
}

export interface ProjectDocument {
  documentId: string;
  name: string;
  mimeType: string | null;
  addedAt: Date;
}

export interface ProjectWithContents extends ProjectSummary {
  documents: ProjectDocument[];
}

export const PROJECT_LIMITS = { nameChars: 200, descriptionChars: 4000 };

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > PROJECT_LIMITS.nameChars) {
    throw invalidInput(
      `A project name has 1 to ${PROJECT_LIMITS.nameChars} characters; "${trimmed.slice(0, 40)}" has ${trimmed.length}.`,
    );
  }
  if (trimmed.includes('\u0000')) throw invalidInput('A project name cannot contain a NUL character (U+0000); remove it.');
  return trimmed;
}

function checkDescription(description: string): string {
  if (description.length > PROJECT_LIMITS.descriptionChars) {
    throw invalidInput(
      `A project description has at most ${PROJECT_LIMITS.descriptionChars} characters; this one has ${description.length}. Shorten it.`,
    );
  }
  if (description.includes('\u0000')) {
    throw invalidInput('A project description cannot contain a NUL character (U+0000); remove it.');
  }
  return description;
}

/** Serializes project writes of one organization, so that two requests cannot both pass the name check. */
async function lockOrgProjects(tx: Db, orgId: string): Promise<void> {
  await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('no key update');
}

async function assertNameFree(tx: Db, orgId: string, name: string, exceptId?: string): Promise<void> {
  const conditions = [eq(projects.orgId, orgId), sql`lower(${projects.name}) = lower(${name})`];
  if (exceptId) conditions.push(ne(projects.id, exceptId));
  const [taken] = await tx
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(...conditions));
  if (taken) {
    throw conflict(
      `A project named "${taken.name}" already exists (project_id ${taken.id}); choose another name, or use that project.`,
    );
  }
}

/** A project of the organization, without its contents; another organization's is not found. */
export async function getProjectRecord(db: Db, orgId: string, projectId: string): Promise<ProjectRecord> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.orgId, orgId)));
  if (!row) throw notFound(`Project ${projectId}`);
  return row;
}

// Spelled out: in a query of one table Drizzle leaves column names unqualified, and inside the
// subquery an unqualified "id" would be the counted table's own.
const noteCountOf = sql<number>`(select count(*) from notes n where n.project_id = projects.id)`.mapWith(Number);
const documentCountOf = sql<number>`(select count(*) from project_documents pd where pd.project_id = projects.id)`.mapWith(
  Number,
);

const summaryColumns = {
  id: projects.id,
  orgId: projects.orgId,
  name: projects.name,
  description: projects.description,
  datasetId: projects.datasetId,
  createdBy: projects.createdBy,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  noteCount: noteCountOf,
  documentCount: documentCountOf,
};

/** The documents linked to each of the projects, oldest link first. */
async function documentsOf(db: Db, projectIds: string[]): Promise<Map<string, ProjectDocument[]>> {
  const byProject = new Map<string, ProjectDocument[]>(projectIds.map((id) => [id, []]));
  if (projectIds.length === 0) return byProject;
  const rows = await db
    .select({
      projectId: projectDocuments.projectId,
      documentId: projectDocuments.documentId,
      name: documents.name,
      mimeType: documents.mimeType,
      addedAt: projectDocuments.addedAt,
    })
    .from(projectDocuments)
    .innerJoin(documents, eq(documents.id, projectDocuments.documentId))
    .where(inArray(projectDocuments.projectId, projectIds))
    .orderBy(asc(projectDocuments.addedAt), asc(projectDocuments.documentId));
  for (const { projectId, ...document } of rows) byProject.get(projectId)?.push(document);
  return byProject;
}

/** A project of the organization with its note and document counts and its documents, oldest link first. */
export async function getProject(db: Db, orgId: string, projectId: string): Promise<ProjectWithContents> {
  const [row] = await db
    .select(summaryColumns)
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.orgId, orgId)));
  if (!row) throw notFound(`Project ${projectId}`);
  return { ...row, documents: (await documentsOf(db, [row.id])).get(row.id) ?? [] };
}

/** A page of the organization's projects, newest first, with their note and document counts and their documents. */
export async function listProjects(
  db: Db,
  orgId: string,
  page: { skip: number; limit: number; nameSearch?: string },
): Promise<{ projects: ProjectWithContents[]; total: number }> {
  const conditions = [eq(projects.orgId, orgId)];
  if (page.nameSearch) conditions.push(ilike(projects.name, `%${escapeLike(page.nameSearch)}%`));
  const where = and(...conditions);
  const counted = db.select({ n: count() }).from(projects).where(where);
  const { rows, total } = await pageWithTotal(
    await db
      .select({ ...summaryColumns, total: totalColumn(counted) })
      .from(projects)
      .where(where)
      .orderBy(desc(projects.createdAt), desc(projects.id))
      .offset(page.skip)
      .limit(page.limit),
    page.skip,
    () => counted,
  );
  const linked = await documentsOf(
    db,
    rows.map((r) => r.id),
  );
  return { projects: rows.map((r) => ({ ...r, documents: linked.get(r.id) ?? [] })), total };
}

/** Creates an empty project; its name must not be taken in the organization, whatever its case. */
export async function createProject(
  s: ProjectServices,
  access: OrgAccess,
  input: { name: string; description?: string },
): Promise<ProjectWithContents> {
  const name = checkName(input.name);
  const description = checkDescription(input.description ?? '');
  const createdBy = await actorName(s.db, access);
  const id = newId();
  await s.db.transaction(async (tx) => {
    await lockOrgProjects(tx, access.orgId);
    await assertNameFree(tx, access.orgId, name);
    await tx.insert(projects).values({ id, orgId: access.orgId, name, description, createdBy });
  });
  return getProject(s.db, access.orgId, id);
}

/** Renames a project or changes its description; a request that changes nothing leaves updatedAt alone. */
export async function updateProject(
  s: ProjectServices,
  access: OrgAccess,
  projectId: string,
  changes: { name?: string; description?: string },
): Promise<ProjectWithContents> {
  const name = changes.name === undefined ? undefined : checkName(changes.name);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  await s.db.transaction(async (tx) => {
    await lockOrgProjects(tx, access.orgId);
    const current = await getProjectRecord(tx, access.orgId, projectId);
    const set: Partial<typeof projects.$inferInsert> = {};
    if (name !== undefined && name !== current.name) set.name = name;
    if (description !== undefined && description !== current.description) set.description = description;
    if (Object.keys(set).length === 0) return;
    if (set.name !== undefined) await assertNameFree(tx, access.orgId, set.name, projectId);
    await tx
      .update(projects)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(projects.id, projectId), eq(projects.orgId, access.orgId)));
  });
  return getProject(s.db, access.orgId, projectId);
}

/** Deletes a project with its notes and their versions; its documents stay in the organization, unlinked. */
export async function deleteProject(s: ProjectServices, access: OrgAccess, projectId: string): Promise<void> {
  const removed = await s.db.transaction(async (tx) => {
    await getProjectRecord(tx, access.orgId, projectId);
    const gone = await tx.select({ id: notes.id, version: notes.version }).from(notes).where(eq(notes.projectId, projectId));
    await tx.delete(projects).where(and(eq(projects.id, projectId), eq(projects.orgId, access.orgId)));
    return gone;
  });
  const at = new Date().toISOString();
  for (const note of removed) {
    s.events.publish({
      type: 'note.deleted',
      orgId: access.orgId,
      projectId,
      noteId: note.id,
      version: note.version,
      actor: access.userId,
      at,
    });
  }
}

/** Links a document of the organization to the project; linking it again changes nothing. */
export async function addProjectDocument(
  s: ProjectServices,
  access: OrgAccess,
  projectId: string,
  documentId: string,
): Promise<ProjectWithContents> {
  await getProjectRecord(s.db, access.orgId, projectId);
  const [document] = await s.db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.orgId, access.orgId)));
  if (!document) throw notFound(`Document ${documentId}`);
  const addedBy = await actorName(s.db, access);
  await s.db.transaction(async (tx) => {
    const added = await tx
      .insert(projectDocuments)
      .values({ projectId, documentId, addedBy })
      .onConflictDoNothing()
      .returning({ documentId: projectDocuments.documentId });
    if (added.length > 0) await tx.update(projects).set({ updatedAt: new Date() }).where(eq(projects.id, projectId));
  });
  return getProject(s.db, access.orgId, projectId);
}

/** Unlinks a document from the project; the document itself stays. */
export async function removeProjectDocument(
  s: ProjectServices,
  access: OrgAccess,
  projectId: string,
  documentId: string,
): Promise<ProjectWithContents> {
  await getProjectRecord(s.db, access.orgId, projectId);
  await s.db.transaction(async (tx) => {
    const removed = await tx
      .delete(projectDocuments)
      .where(and(eq(projectDocuments.projectId, projectId), eq(projectDocuments.documentId, documentId)))
      .returning({ documentId: projectDocuments.documentId });
    if (removed.length === 0) throw notFound(`Document ${documentId} in project ${projectId}`);
    await tx.update(projects).set({ updatedAt: new Date() }).where(eq(projects.id, projectId));
  });
  return getProject(s.db, access.orgId, projectId);
}
