import { Link } from 'react-router';
import { documentFileUrl, isTextPending, useRerunTextExtractionMutation } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { orgPath } from '../layout/orgPaths';

/** The document's name with what can be done to it: download it, extract its text again. */
export function DocumentHeader({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const rerun = useRerunTextExtractionMutation(orgId, document.id);
  return (
    <div className="space-y-4">
      <Link to={orgPath(orgId, 'documents')} className="text-sm text-slate-600 hover:text-slate-900">
        ← All documents
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-slate-900">{document.document_name}</h1>
        <div className="flex gap-2">
          <a
            href={documentFileUrl(orgId, document.id)}
            download={document.document_name}
            className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-500"
          >
            Download
          </a>
          <Button variant="secondary" disabled={rerun.isPending || isTextPending(document.state)} onClick={() => rerun.mutate()}>
            Re-run text extraction
          </Button>
        </div>
      </div>
      {rerun.isError && <ErrorAlert title="Could not re-run text extraction" error={rerun.error} />}
    </div>
  );
}
