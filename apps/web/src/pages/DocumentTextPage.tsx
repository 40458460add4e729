import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDocumentQuery } from '../api/documents';
import { useModelOfferQuery } from '../api/models';
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
        <DocumentText orgId={orgId} document={document} />
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
