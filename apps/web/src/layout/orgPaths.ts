export function orgPath(orgId: string, page: 'documents' | 'settings'): string {
  return `/orgs/${encodeURIComponent(orgId)}/${page}`;
}

export function documentPagePath(orgId: string, documentId: string): string {
  return `${orgPath(orgId, 'documents')}/${encodeURIComponent(documentId)}`;
}
