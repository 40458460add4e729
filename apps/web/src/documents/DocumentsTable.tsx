import { Link } from 'react-router';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { documentPagePath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';
import { AutoCreateBadge } from './AutoCreateBadge';
import { DocumentStateBadge } from './DocumentStateBadge';
import { kindLabels } from './documentKinds';
import { TagChip } from './TagChip';

// Auto-create comes last so that the columns before it keep their places (tests and habits count on them).
const COLUMNS = ['Name', 'Type', 'State', 'Tags', 'Uploaded', 'Pages', 'Auto-create'];

interface DocumentsTableProps {
  orgId: string;
  documents: DocumentSummary[];
  onTagSelect: (tagId: string) => void;
  onDelete: (document: DocumentSummary) => void;
  /** The document whose deletion is under way, if any. */
  deletingId: string | null;
  /** The documents chosen for a bulk action, by id. */
  chosen: ReadonlySet<string>;
  onChoose: (documentId: string, chosen: boolean) => void;
}

export function DocumentsTable({ orgId, documents, onTagSelect, onDelete, deletingId, chosen, onChoose }: DocumentsTableProps) {
  return (
    <DataTable columns={COLUMNS}>
      {documents.map((document) => (
        <tr key={document.id} className="align-top">
          <td className="max-w-72 px-4 py-2.5">
            {/* In the name's cell, so that the columns keep their places. */}
            <input
              type="checkbox"
              className="mr-2 size-4 rounded border-slate-300 align-[-3px]"
              aria-label={`Choose ${document.document_name}`}
              checked={chosen.has(document.id)}
              onChange={(event) => onChoose(document.id, event.target.checked)}
            />
            <Link
              to={documentPagePath(orgId, document.id)}
              className="font-medium break-words text-slate-900 underline-offset-2 hover:underline"
            >
              {document.document_name}
            </Link>
          </td>
          <td className="px-4 py-2.5" title={document.type}>
            {kindLabels[document.kind]}
          </td>
          <td className="px-4 py-2.5">
            <DocumentStateBadge state={document.state} error={document.state_error} progress={document.progress} />
          </td>
          <td className="px-4 py-2.5">
            {document.tag_ids.length === 0 ? (
              <span className="text-slate-400">—</span>
            ) : (
              <div className="flex max-w-56 flex-wrap gap-1">
                {document.tag_ids.map((tagId) => (
                  <TagChip key={tagId} tagId={tagId} onSelect={onTagSelect} />
                ))}
              </div>
            )}
          </td>
          <td className="px-4 py-2.5 whitespace-nowrap">
            <time dateTime={document.upload_date}>{formatDateTime(document.upload_date)}</time>
          </td>
          <td className="px-4 py-2.5 tabular-nums">{document.page_count ?? '—'}</td>
          <td className="px-4 py-2.5">
            <AutoCreateBadge status={document.auto_create_status} error={document.auto_create_error} />
          </td>
          <td className="px-4 py-2.5 text-right">
            <Button
              variant="danger"
              className="px-2.5 py-1 text-xs"
              aria-label={`Delete ${document.document_name}`}
              disabled={deletingId === document.id}
              onClick={() => onDelete(document)}
            >
              Delete
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
