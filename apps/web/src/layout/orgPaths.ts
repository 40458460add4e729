export type OrgPage = 'documents' | 'datasets' | 'projects' | 'schemas' | 'prompts' | 'tags' | 'settings';

export function orgPath(orgId: string, page: OrgPage): string {
  return `/orgs/${encodeURIComponent(orgId)}/${page}`;
}

export function documentPagePath(orgId: string, documentId: string): string {
  return `${orgPath(orgId, 'documents')}/${encodeURIComponent(documentId)}`;
}

export function datasetPagePath(orgId: string, datasetId: string): string {
  return `${orgPath(orgId, 'datasets')}/${encodeURIComponent(datasetId)}`;
}

export function projectPagePath(orgId: string, projectId: string): string {
  return `${orgPath(orgId, 'projects')}/${encodeURIComponent(projectId)}`;
}

/** The editor of a schema, or of a new one when schemaId is "new". */
export function schemaPagePath(orgId: string, schemaId: string): string {
  return `${orgPath(orgId, 'schemas')}/${encodeURIComponent(schemaId)}`;
}

/** The editor of a prompt, or of a new one when promptId is "new". */
export function promptPagePath(orgId: string, promptId: string): string {
  return `${orgPath(orgId, 'prompts')}/${encodeURIComponent(promptId)}`;
}

/** Where one older version of a schema or prompt is shown read-only. */
export function versionPath(pagePath: string, version: number): string {
  return `${pagePath}?version=${version}`;
}

/** A document's page with one field of a result focused, its citation shown (`useFocusFieldFromUrl`). */
export function documentFieldPath(orgId: string, documentId: string, field: string, promptRevid?: string): string {
  const search = new URLSearchParams({ field, ...(promptRevid ? { prompt_revid: promptRevid } : {}) });
  return `${documentPagePath(orgId, documentId)}?${search}`;
}
