import type { ReactNode } from 'react';
import { hasText, isTextPending, useDocumentTextQuery } from '../api/documents';
import type { DocumentSummary, PageText } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { formatDateTime } from '../lib/format';
import { engineLabel } from './textEngines';

function TextPage({ page }: { page: PageText }) {
  const headingId = `text-page-${page.page}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-baseline justify-between gap-4 border-b border-slate-200 px-5 py-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Page {page.page}
        </h3>
        <span className="text-xs text-slate-500">{engineLabel(page.engine)}</span>
      </div>
      {page.text.trim() === '' ? (
        <p className="px-5 py-4 text-sm text-slate-500">No text was found on this page.</p>
      ) : (
        <pre className="overflow-x-auto px-5 py-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800">
          {page.text}
        </pre>
      )}
    </section>
  );
}

function ExtractedText({ orgId, documentId }: { orgId: string; documentId: string }) {
  const textQuery = useDocumentTextQuery(orgId, documentId);
  if (textQuery.isPending) {
    return <LoadingState label="Loading the text…" />;
  }
  if (textQuery.isError) {
    return <ErrorAlert title="Could not load the text" error={textQuery.error} onRetry={() => void textQuery.refetch()} />;
  }
  const text = textQuery.data;
  const engines = [...new Set(text.pages.map((page) => engineLabel(page.engine)))].join(', ');
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        {text.n_pages} {text.n_pages === 1 ? 'page' : 'pages'}
        {text.ocr_date && ` · extracted ${formatDateTime(text.ocr_date)}`}
        {engines && ` · ${engines}`}
      </p>
      {text.pages.map((page) => (
        <TextPage key={page.page} page={page} />
      ))}
    </div>
  );
}

/** The document's text per page once it is ready, or where the text pipeline stands. */
export function DocumentText({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  let body: ReactNode;
  if (hasText(document.state)) {
    body = <ExtractedText orgId={orgId} documentId={document.id} />;
  } else if (isTextPending(document.state)) {
    body = (
      <LoadingState
        label={
          document.state === 'uploaded'
            ? 'Waiting for text extraction to start. The text shows here when it is ready.'
            : 'Extracting text. The text shows here when it is ready.'
        }
      />
    );
  } else {
    body = (
      <div className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
        <p className="font-medium">Text extraction failed</p>
        <p className="mt-1">{document.state_error ?? 'The server did not record why.'}</p>
        <p className="mt-2 text-red-700">Re-run text extraction to try again, or upload a corrected file.</p>
      </div>
    );
  }
  return (
    <section aria-labelledby="document-text-heading" className="space-y-4">
      <h2 id="document-text-heading" className="text-lg font-semibold text-slate-900">
        Extracted text
      </h2>
      {body}
    </section>
  );
}
