import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePromptRevisionQuery, useSchemaRevisionQuery } from '../api/revisions';
import { documentPagePath, orgPath, promptPagePath, schemaPagePath, versionPath } from '../layout/orgPaths';
import { parseResourceHref, type ResourceRef } from './resourceLinks';

const linkClass = 'font-medium text-sky-700 underline underline-offset-2 hover:text-sky-900';

/** Where a resource link leads: a revision's page (looked up once), the tags list, a document. */
function useResourcePath(orgId: string, ref: ResourceRef | null): string | null {
  const schema = useSchemaRevisionQuery(orgId, ref?.kind === 'schema' ? ref.id : undefined);
  const prompt = usePromptRevisionQuery(orgId, ref?.kind === 'prompt' ? ref.id : undefined);
  if (ref === null) return null;
  switch (ref.kind) {
    case 'tag':
      return orgPath(orgId, 'tags');
    case 'document':
      return documentPagePath(orgId, ref.id);
    case 'schema':
      // A revision not found (deleted, or not a revid after all) opens the list.
      if (schema.data) return versionPath(schemaPagePath(orgId, schema.data.schema_id), schema.data.schema_version);
      return schema.isError ? orgPath(orgId, 'schemas') : null;
    default:
      if (prompt.data) return versionPath(promptPagePath(orgId, prompt.data.prompt_id), prompt.data.prompt_version);
      return prompt.isError ? orgPath(orgId, 'prompts') : null;
  }
}

/** A link in the agent's answer: the org's schema, prompt, tag or document in the app; any other opens in a new tab. */
export function ResourceLink({ orgId, href, children }: { orgId: string; href: string; children: ReactNode }) {
  const ref = parseResourceHref(href);
  const path = useResourcePath(orgId, ref);
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
