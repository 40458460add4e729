import type { ReactNode } from 'react';
import type { DocumentSummary } from '../api/types';
import { formatBytes, formatDateTime } from '../lib/format';
import { DocumentStateBadge } from './DocumentStateBadge';
import { DocumentTagsEditor } from './DocumentTagsEditor';
import { kindLabels } from './documentKinds';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export function DocumentDetails({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const metadata = Object.entries(document.metadata);
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-4 rounded-lg border border-slate-200 bg-white px-6 py-5 sm:grid-cols-4">
      <Detail label="Type">
        {kindLabels[document.kind]} <span className="text-slate-500">({document.type})</span>
      </Detail>
      <Detail label="State">
        <DocumentStateBadge state={document.state} error={null} progress={document.progress} />
      </Detail>
      <Detail label="Pages">{document.page_count ?? '—'}</Detail>
      <Detail label="Size">{formatBytes(document.size_bytes)}</Detail>
      <Detail label="Uploaded by">{document.uploaded_by}</Detail>
      <Detail label="Uploaded">
        <time dateTime={document.upload_date}>{formatDateTime(document.upload_date)}</time>
      </Detail>
      <Detail label="Tags">
        <DocumentTagsEditor orgId={orgId} document={document} />
      </Detail>
      <Detail label="Metadata">
        {metadata.length === 0 ? (
          'None'
        ) : (
          <ul className="space-y-0.5">
            {metadata.map(([key, value]) => (
              <li key={key} className="break-words">
                <span className="text-slate-500">{key}:</span> {value}
              </li>
            ))}
          </ul>
        )}
      </Detail>
    </dl>
  );
}
