/** The agent writes links to the organization's things as [name](schema:<schema_revid>) and the like. */
export type ResourceKind = 'schema' | 'prompt' | 'tag' | 'document';

export interface ResourceRef {
  kind: ResourceKind;
  id: string;
}

const RESOURCE_HREF = /^(schema|prompt|tag|document):([\w:-]{1,128})$/;

export function parseResourceHref(href: string): ResourceRef | null {
  const match = RESOURCE_HREF.exec(href.trim());
  return match ? { kind: match[1] as ResourceKind, id: match[2] as string } : null;
}

export function isResourceHref(href: string): boolean {
  return parseResourceHref(href) !== null;
}
