import { useState } from 'react';
import { Link } from 'react-router';
import { useDocumentsQuery } from '../api/documents';
import { type Project, useProjectDocumentMutation } from '../api/projects';
import { ErrorAlert } from '../components/ErrorAlert';
import { datasetPagePath, documentPagePath } from '../layout/orgPaths';
import { useDebouncedValue } from '../lib/useDebouncedValue';

const smallButton =
  'rounded px-1.5 py-0.5 text-xs font-medium text-slate-700 underline-offset-2 hover:underline disabled:opacity-60';

/** Choosing a document of the organization to link, by a part of its name. */
function LinkDocument({ orgId, project, onLink }: { orgId: string; project: Project; onLink: (id: string) => void }) {
  const [search, setSearch] = useState('');
  const nameSearch = useDebouncedValue(search.trim(), 300);
  const documentsQuery = useDocumentsQuery(orgId, { skip: 0, nameSearch, tagIds: [], autoCreateStatus: null });
  const linked = new Set(project.documents.map((document) => document.document_id));
  const choices = (documentsQuery.data?.documents ?? []).filter((document) => !linked.has(document.id));
  return (
    <div className="space-y-1 border-t border-slate-200 px-3 py-2">
      <input
        type="search"
        aria-label="Find a document to link"
        placeholder="Find a document…"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        className="block w-full rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-900"
      />
      <ul className="max-h-32 overflow-y-auto text-xs">
        {choices.map((document) => (
          <li key={document.id} className="flex items-center gap-1">
            <span className="min-w-0 flex-1 truncate text-slate-800">{document.document_name}</span>
            <button type="button" className={smallButton} onClick={() => onLink(document.id)}>
              Link<span className="sr-only"> {document.document_name}</span>
            </button>
          </li>
        ))}
        {documentsQuery.isSuccess && choices.length === 0 && <li className="text-slate-500">No other document matches.</li>}
      </ul>
    </div>
  );
}

/** The documents linked to the project: each opens its page; linking and unlinking leave the document itself alone. */
export function ProjectDocuments({ orgId, project }: { orgId: string; project: Project }) {
  const change = useProjectDocumentMutation(orgId, project.project_id);
  const [linking, setLinking] = useState(false);
  return (
    <section aria-label="Project documents" className="shrink-0 rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-900">Documents</h2>
        <button type="button" aria-expanded={linking} className={smallButton} onClick={() => setLinking(!linking)}>
          {linking ? 'Done' : 'Link'}
        </button>
      </div>
      {project.documents.length === 0 && <p className="px-3 py-2 text-xs text-slate-500">No documents linked.</p>}
      <ul className="divide-y divide-slate-100 text-xs">
        {project.documents.map((document) => (
          <li key={document.document_id} className="flex items-center gap-1 px-3 py-1">
            <Link
              to={documentPagePath(orgId, document.document_id)}
              className="min-w-0 flex-1 truncate text-slate-800 underline-offset-2 hover:underline"
            >
              {document.document_name}
            </Link>
            <button
              type="button"
              className={smallButton}
              disabled={change.isPending}
              onClick={() => change.mutate({ documentId: document.document_id, link: false })}
            >
              Unlink<span className="sr-only"> {document.document_name}</span>
            </button>
          </li>
        ))}
      </ul>
      {project.dataset_id && (
        <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-600">
          Its CSV, TSV and XLSX documents are tables the agent can query:{' '}
          <Link
            to={datasetPagePath(orgId, project.dataset_id)}
            className="font-medium text-sky-700 underline-offset-2 hover:underline"
          >
            open the tables
          </Link>
        </p>
      )}
      {change.isError && <ErrorAlert title="Could not change the documents" error={change.error} />}
      {linking && <LinkDocument orgId={orgId} project={project} onLink={(id) => change.mutate({ documentId: id, link: true })} />}
    </section>
  );
}
