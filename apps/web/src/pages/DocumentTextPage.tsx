import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDocumentQuery } from '../api/documents';
import { useModelOfferQuery } from '../api/models';
import type { DocumentSummary } from '../api/types';
import { ChatPanel } from '../chat/ChatPanel';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { DocumentDetails } from '../documents/DocumentDetails';
import { DocumentHeader } from '../documents/DocumentHeader';
import { DocumentText } from '../documents/DocumentText';
import { ExtractionPanel } from '../extraction/ExtractionPanel';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath } from '../layout/orgPaths';

/** After this long a document whose text is ready but whose prompts never started is not waited for. */
const EXTRACTION_START_WAIT_MS = 10 * 60_000;

type SideTab = 'text' | 'chat';

const sideTabs: { id: SideTab; label: string }[] = [
  { id: 'text', label: 'Text' },
  { id: 'chat', label: 'Chat' },
];

/**
 * The document's text, or the agent's chat, next to the extraction results. The chat stays
 * mounted once opened, so that a turn goes on while the text is shown.
 */
function DocumentSidePanel({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const [tab, setTab] = useState<SideTab>('text');
  const [chatOpened, setChatOpened] = useState(false);
  const baseId = useId();

  function choose(next: SideTab) {
    setTab(next);
    if (next === 'chat') setChatOpened(true);
  }

  return (
    <div className="min-w-0 space-y-4">
      <div role="tablist" aria-label="Document panels" className="flex gap-1 border-b border-slate-200">
        {sideTabs.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            id={`${baseId}-${candidate.id}-tab`}
            aria-selected={tab === candidate.id}
            aria-controls={`${baseId}-${candidate.id}-panel`}
            onClick={() => choose(candidate.id)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm font-medium ${tab === candidate.id ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-text-panel`} aria-labelledby={`${baseId}-text-tab`} hidden={tab !== 'text'}>
        <DocumentText orgId={orgId} document={document} />
      </div>
      <div role="tabpanel" id={`${baseId}-chat-panel`} aria-labelledby={`${baseId}-chat-tab`} hidden={tab !== 'chat'}>
        {chatOpened && <ChatPanel orgId={orgId} documentId={document.id} />}
      </div>
    </div>
  );
}

function DocumentView({ orgId, documentId }: { orgId: string; documentId: string }) {
  const offerQuery = useModelOfferQuery(orgId);
  const [openedAt] = useState(() => Date.now());
  // With a model configured, the prompts start right after the text is ready: keep polling for them.
  const awaitingExtraction = (offerQuery.data?.models.length ?? 0) > 0 && Date.now() - openedAt < EXTRACTION_START_WAIT_MS;
  const documentQuery = useDocumentQuery(orgId, documentId, awaitingExtraction);

  if (documentQuery.isPending) {
    return <LoadingState label="Loading the document…" />;
  }
  if (documentQuery.error instanceof ApiError && documentQuery.error.status === 404) {
    return (
      <EmptyState
        title="Document not found"
        description="This document does not exist any more, or it belongs to another organization."
      >
        <Link to={orgPath(orgId, 'documents')} className="text-sm font-medium text-slate-900 underline">
          Go to the documents
        </Link>
      </EmptyState>
    );
  }
  if (!documentQuery.data) {
    return (
      <ErrorAlert title="Could not load the document" error={documentQuery.error} onRetry={() => void documentQuery.refetch()} />
    );
  }

  const document = documentQuery.data;
  return (
    <div className="space-y-6">
      <DocumentHeader orgId={orgId} document={document} />
      {documentQuery.isError && (
        <ErrorAlert
          title="Could not refresh the document"
          error={documentQuery.error}
          onRetry={() => void documentQuery.refetch()}
        />
      )}
      <DocumentDetails orgId={orgId} document={document} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ExtractionPanel orgId={orgId} document={document} />
        <DocumentSidePanel orgId={orgId} document={document} />
      </div>
    </div>
  );
}

export function DocumentTextPage() {
  const org = useCurrentOrg();
  const { documentId } = useParams();
  // Keyed so that moving to another document starts from its own loading state.
  return documentId ? <DocumentView key={documentId} orgId={org.id} documentId={documentId} /> : null;
}
