import { Link } from 'react-router';
import type { Prompt } from '../api/prompts';
import { formatDateTime } from '../lib/format';
import { ModelLabel } from './ModelLabel';
import { SchemaLabel } from './SchemaLabel';
import { TagLabels } from './TagLabels';

interface PromptVersionViewProps {
  orgId: string;
  prompt: Prompt;
  /** The page of the current version, which can be edited. */
  currentPath: string;
}

/** An older version of a prompt, read-only: saved versions never change. */
export function PromptVersionView({ orgId, prompt, currentPath }: PromptVersionViewProps) {
  return (
    <section aria-label={`Version ${prompt.prompt_version}`} className="space-y-4">
      <div className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        <p>
          You are viewing version {prompt.prompt_version}, saved {formatDateTime(prompt.created_at)} by {prompt.created_by}. Older
          versions are read-only.
        </p>
        <Link to={currentPath} className="font-medium underline">
          Edit the current version
        </Link>
      </div>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        <dt className="font-medium text-slate-800">Prompt name</dt>
        <dd className="text-slate-700">{prompt.name}</dd>
        <dt className="font-medium text-slate-800">Schema</dt>
        <dd className="text-slate-700">
          <SchemaLabel orgId={orgId} prompt={prompt} />
        </dd>
        <dt className="font-medium text-slate-800">Model</dt>
        <dd className="text-slate-700">
          <ModelLabel model={prompt.model} />
        </dd>
        <dt className="font-medium text-slate-800">Tags</dt>
        <dd className="text-slate-700">
          <TagLabels orgId={orgId} tagIds={prompt.tag_ids} />
        </dd>
        <dt className="font-medium text-slate-800">Instructions</dt>
        <dd>
          <pre className="overflow-x-auto rounded-md border border-slate-200 bg-white px-3 py-2 text-sm whitespace-pre-wrap text-slate-900">
            {prompt.content || '(empty)'}
          </pre>
        </dd>
      </dl>
    </section>
  );
}
