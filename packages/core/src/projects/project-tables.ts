import { and, eq, isNull } from 'drizzle-orm';
import type { DatasetServices } from '../data/datasets/dataset-services.ts';
import { addDocumentTables, checkTableSources, isTabularKind, removeDocumentTables } from '../data/datasets/dataset-tables.ts';
import { createDataset, deleteDataset, getDatasetRecord, listDatasets } from '../data/datasets/datasets.ts';
import { documents, projects } from '../db/schema.ts';
import { isDomainError } from '../errors.ts';
import type { OrgAccess } from '../identity/access.ts';
import {
  addProjectDocument,
  deleteProject,
  getProject,
  getProjectRecord,
  type ProjectRecord,
  type ProjectServices,
  type ProjectWithContents,
  removeProjectDocument,
} from './projects.ts';

/**
 * A project's tables: its CSV, TSV and XLSX documents are the tables of a dataset of its own,
 * which the data analyst queries in the project's conversations. Linking such a document adds its
 * tables there; unlinking takes them out.
 */

/** Links the document to the project and, when it is tabular, makes its tables in the project's dataset. */
export async function linkProjectDocument(
  s: ProjectServices,
  data: DatasetServices,
  access: OrgAccess,
  projectId: string,
  documentId: string,
): Promise<ProjectWithContents> {
  const linked = await addProjectDocument(s, access, projectId, documentId);
  const [document] = await s.db
    .select({ kind: documents.kind })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.orgId, access.orgId)));
  if (!document || !isTabularKind(document.kind)) return linked;
  const datasetId = await projectDatasetOf(s, data, access, await getProjectRecord(s.db, access.orgId, projectId));
  const [source] = await checkTableSources(s.db, access.orgId, [documentId]);
  try {
    if (source) await addDocumentTables(data, { id: datasetId }, source, undefined);
  } catch (error) {
    // Linked again: its tables are there already.
    if (!(isDomainError(error) && error.kind === 'conflict')) throw error;
  }
  return getProject(s.db, access.orgId, projectId);
}

/** Unlinks the document from the project, and takes its tables out of the project's dataset. */
export async function unlinkProjectDocument(
  s: ProjectServices,
  data: DatasetServices,
  access: OrgAccess,
  projectId: string,
  documentId: string,
): Promise<ProjectWithContents> {
  const project = await getProjectRecord(s.db, access.orgId, projectId);
  const unlinked = await removeProjectDocument(s, access, projectId, documentId);
  if (project.datasetId) await removeDocumentTables(data, project.datasetId, documentId);
  return unlinked;
}

/**
 * The project's dataset, made on first need. Two links at once may both make one: the first to
 * record its own wins, the other deletes its empty one and uses the winner's.
 */
async function projectDatasetOf(
  s: ProjectServices,
  data: DatasetServices,
  access: OrgAccess,
  project: ProjectRecord,
): Promise<string> {
  if (project.datasetId) return project.datasetId;
  const made = await createDataset(data, access, {
    name: await freeDatasetName(s, access.orgId, project.name),
    description: `The tables of the project "${project.name}": its CSV, TSV and XLSX documents.`,
  });
  const [won] = await s.db
    .update(projects)
    .set({ datasetId: made.id })
    .where(and(eq(projects.id, project.id), isNull(projects.datasetId)))
    .returning({ datasetId: projects.datasetId });
  if (won) return made.id;
  await deleteDataset(data, access.orgId, made.id);
  const current = await getProjectRecord(s.db, access.orgId, project.id);
  return current.datasetId ?? projectDatasetOf(s, data, access, current);
}

/** "<project> tables", or with a number when a dataset has that name already. */
async function freeDatasetName(s: ProjectServices, orgId: string, projectName: string): Promise<string> {
  const stem = `${projectName.slice(0, 180)} tables`;
  const taken = new Set(
    (await listDatasets(s.db, orgId, { skip: 0, limit: 100, nameSearch: stem })).datasets.map((d) => d.name.toLowerCase()),
  );
  for (let n = 1; ; n++) {
    const name = n === 1 ? stem : `${stem} ${n}`;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** The project's dataset id, or null while it has no tables; another organization's project is not found. */
export async function projectDatasetId(s: Pick<ProjectServices, 'db'>, orgId: string, projectId: string): Promise<string | null> {
  const project = await getProjectRecord(s.db, orgId, projectId);
  if (!project.datasetId) return null;
  await getDatasetRecord(s.db, orgId, project.datasetId);
  return project.datasetId;
}

/** Deletes the project with its notes, and its dataset of tables (the documents stay). */
export async function deleteProjectAndTables(
  s: ProjectServices,
  data: DatasetServices,
  access: OrgAccess,
  projectId: string,
): Promise<void> {
  const { datasetId } = await getProjectRecord(s.db, access.orgId, projectId);
  await deleteProject(s, access, projectId);
  if (datasetId) await deleteDataset(data, access.orgId, datasetId).catch(ignoreNotFound);
}

/** The dataset was deleted on its own meanwhile: nothing left to do. */
function ignoreNotFound(error: unknown): void {
  if (!(isDomainError(error) && error.kind === 'not_found')) throw error;
}
