import { Link } from 'react-router';
import { documentFileUrl, isTextPending, useRerunTextExtractionMutation } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { Popover } from '../components/Popover';
import { orgPath } from '../layout/orgPaths';
import { formatBytes } from '../lib/format';
import { DocumentDetails } from './DocumentDetails';
import { DocumentStateBadge } from './DocumentStateBadge';
import { kindLabels } from './documentKinds';

const pagesOf = (count: number | null) => (count === null ? null : `${count} ${count === 1 ? 'page' : 'pages'}`);

/**
 * The document page's header in one line, so that the panels below get the window: the way back,
 * the document's name and state, what it is, and what can be done to it (its details and tags in a
 * popover, download, extract its text again).
 */
export function DocumentHeader({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const rerun = useRerunTextExtractionMutation(orgId, document.id);
  const facts = [kindLabels[document.kind], pagesOf(document.page_count), formatBytes(document.size_bytes)].filter(Boolean);
  return (
    <div className="space-y-2">
      <div className="flex min-w-0 items-center gap-3">
        <Link to={orgPath(orgId, 'documents')} className="shrink-0 text-sm text-slate-600 hover:text-slate-900">
          ← All documents
        </Link>
        <span aria-hidden="true" className="h-5 w-px shrink-0 bg-slate-300" />
        <h1 className="min-w-0 truncate text-lg font-semibold tracking-tight text-slate-900" title={document.document_name}>
          {document.document_name}
        </h1>
        <div className="shrink-0">
          <DocumentStateBadge state={document.state} error={null} progress={document.progress} />
        </div>
        <span className="hidden shrink-0 text-sm whitespace-nowrap text-slate-500 lg:inline">{facts.join(' · ')}</span>
        <div className="relative ml-auto flex shrink-0 items-center gap-2">
          <Popover
            title="Document details"
            summary="Details"
            summaryClassName="border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
            panelClassName="top-full right-0 mt-1 max-h-[70vh] w-[min(44rem,calc(100vw-2rem))] p-2"
          >
            <DocumentDetails orgId={orgId} document={document} />
          </Popover>
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
