import { Link } from 'react-router';
import { type ListedPrompt, type Prompt, useDefaultPromptId } from '../api/prompts';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { documentPagePath, promptPagePath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';
import { ModelLabel } from './ModelLabel';
import { PendingReviewBadge } from './PendingReviewBadge';
import { SchemaLabel } from './SchemaLabel';
import { TagLabels } from './TagLabels';

const COLUMNS = ['Name', 'Version', 'Schema', 'Model', 'Tags', 'Updated'];

interface PromptsTableProps {
  orgId: string;
  /** The current version of each prompt. */
  prompts: ListedPrompt[];
  onDelete: (prompt: Prompt) => void;
  /** The prompt whose deletion is under way, if any. */
  deletingId: string | null;
}

/** An auto-create proposal nobody has accepted yet: it runs on no other document until someone does, on its document's page. */
function PendingReviewMark({ orgId, documentId }: { orgId: string; documentId: string | null | undefined }) {
  const mark = <PendingReviewBadge />;
  return (
    <div className="mt-1">
      {documentId ? (
        <Link to={documentPagePath(orgId, documentId)} title="Review it on the document's page">
          {mark}
        </Link>
      ) : (
        mark
      )}
    </div>
  );
}

export function PromptsTable({ orgId, prompts, onDelete, deletingId }: PromptsTableProps) {
  const defaultPromptId = useDefaultPromptId(orgId);
  return (
    <DataTable columns={COLUMNS}>
      {prompts.map((prompt) => (
        <tr key={prompt.prompt_id} className="align-top">
          <td className="max-w-72 px-4 py-2.5">
            <Link
              to={promptPagePath(orgId, prompt.prompt_id)}
              className="font-medium break-words text-slate-900 underline-offset-2 hover:underline"
            >
              {prompt.name}
            </Link>
            {prompt.auto_create_pending_review && <PendingReviewMark orgId={orgId} documentId={prompt.auto_create_document_id} />}
          </td>
          <td className="px-4 py-2.5 tabular-nums">{prompt.prompt_version}</td>
          <td className="px-4 py-2.5">
            <SchemaLabel orgId={orgId} prompt={prompt} />
          </td>
          <td className="px-4 py-2.5">
            <ModelLabel model={prompt.model} />
          </td>
          <td className="px-4 py-2.5">
            <TagLabels orgId={orgId} tagIds={prompt.tag_ids} />
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap">
            <time dateTime={prompt.created_at}>{formatDateTime(prompt.created_at)}</time>
          </td>
          <td className="px-4 py-2.5 text-right">
            {prompt.prompt_id === defaultPromptId ? (
              <span className="text-xs text-slate-500" title="It runs on every document, so it stays; edit it instead.">
                Default
              </span>
            ) : (
              <Button
                variant="danger"
                className="px-2.5 py-1 text-xs"
                aria-label={`Delete prompt ${prompt.name}`}
                disabled={deletingId === prompt.prompt_id}
                onClick={() => onDelete(prompt)}
              >
                Delete
              </Button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
