export function orgPath(orgId: string, page: 'documents' | 'settings'): string {
  return `/orgs/${encodeURIComponent(orgId)}/${page}`;
}
