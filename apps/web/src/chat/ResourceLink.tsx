import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { getJson } from '../api/client';
import type { Prompt } from '../api/prompts';
import { orgApiPath } from '../api/queries';
import type { Schema } from '../api/schemas';
import { documentPagePath, orgPath, promptPagePath, schemaPagePath, versionPath } from '../layout/orgPaths';
import { parseResourceHref, type ResourceRef } from './resourceLinks';

const linkClass = 'font-medium text-sky-700 underline underline-offset-2 hover:text-sky-900';

/** A revision never changes: once looked up, it is kept. */
function useRevisionPath(orgId: string, ref: ResourceRef | null): string | null {
  const revision = ref !== null && (ref.kind === 'schema' || ref.kind === 'prompt');
  const query = useQuery({
    queryKey: ['orgs', orgId, ref?.kind === 'schema' ? 'schemas' : 'prompts', 'revision', ref?.id],
    queryFn: async () => {
      if (ref?.kind === 'schema') {
        const schema = await getJson<Schema>(`${orgApiPath(orgId)}/schemas/${encodeURIComponent(ref.id)}`);
        return versionPath(schemaPagePath(orgId, schema.schema_id), schema.schema_version);
      }
      const prompt = await getJson<Prompt>(`${orgApiPath(orgId)}/prompts/${encodeURIComponent(ref?.id ?? '')}`);
      return versionPath(promptPagePath(orgId, prompt.prompt_id), prompt.prompt_version);
    },
    enabled: revision,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (ref === null) return null;
  switch (ref.kind) {
    case 'tag':
      return orgPath(orgId, 'tags');
    case 'document':
      return documentPagePath(orgId, ref.id);
    default:
      // A revision not found (deleted, or not a revid after all) opens the list.
      return query.data ?? (query.isError ? orgPath(orgId, ref.kind === 'schema' ? 'schemas' : 'prompts') : null);
  }
}

/** A link in the agent's answer: the org's schema, prompt, tag or document in the app; any other opens in a new tab. */
export function ResourceLink({ orgId, href, children }: { orgId: string; href: string; children: ReactNode }) {
  const ref = parseResourceHref(href);
  const path = useRevisionPath(orgId, ref);
  if (ref !== null) {
    if (path === null) return <span className="font-medium text-slate-700">{children}</span>;
    return (
      <Link to={path} className={linkClass} title={`${ref.kind} ${ref.id}`}>
        {children}
      </Link>
    );
  }
  if (href === '') return <span>{children}</span>;
  return (
    <a href={href} target="_blank" rel="noreferrer noopener" className={linkClass}>
      {children}
    </a>
  );
}
