import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useDocumentQuery } from '../api/documents';
import { useModelOfferQuery } from '../api/models';
import type { DocumentSummary } from '../api/types';
import { ChatPanel } from '../chat/ChatPanel';
import { ActiveCitationProvider } from '../citations/activeCitation';
import { useFocusFieldFromUrl } from '../citations/useFieldFromUrl';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { SegmentedControl } from '../components/SegmentedControl';
import { useAdjacentDocumentShortcuts } from '../documents/adjacentDocuments';
import { DocumentHeader } from '../documents/DocumentHeader';
import { DocumentText } from '../documents/DocumentText';
import { ExtractionPanel } from '../extraction/ExtractionPanel';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath } from '../layout/orgPaths';
import { ThreePanelLayout } from '../layout/panels/ThreePanelLayout';
import { type PanelPrefs, usePanelPrefs } from '../layout/panels/usePanelPrefs';
import { Workspace } from '../layout/panels/Workspace';
import { useShortcut } from '../shortcuts/shortcuts';
import { DocumentViewer } from '../viewer/DocumentViewer';
import { ViewerToolbar } from '../viewer/ViewerToolbar';

/** After this long a document whose text is ready but whose prompts never started is not waited for. */
const EXTRACTION_START_WAIT_MS = 10 * 60_000;

type CenterView = PanelPrefs['centerView'];

const centerViews: { id: CenterView; label: string }[] = [
  { id: 'document', label: 'Document' },
  { id: 'text', label: 'Text' },
];

/** Document | Text: the file itself, or the text extracted from it. */
function CenterViewSwitch({ view, onChange }: { view: CenterView; onChange: (next: CenterView) => void }) {
  return <SegmentedControl legend="Show in the middle" options={centerViews} value={view} onChange={onChange} />;
}

type LeftTab = 'extraction';

const leftTabs: { id: LeftTab; label: string }[] = [{ id: 'extraction', label: 'Extraction' }];

/**
 * Three panels: the extraction results on the left, the document (or its text) in the middle, the agent on the
 * right. Their sizes, which are open and the middle's view are remembered per user.
 */
function DocumentPanels({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const [prefs, updatePrefs] = usePanelPrefs();
  const [leftTab, setLeftTab] = useState<LeftTab>('extraction');
  const [chatControls, setChatControls] = useState<HTMLDivElement | null>(null);
  const baseId = useId();
  // A link to a field (from an evaluation's differences) focuses it, which shows its citation.
  useFocusFieldFromUrl();
  useShortcut('[', () => updatePrefs({ leftOpen: !prefs.leftOpen }));
  useShortcut(']', () => updatePrefs({ rightOpen: !prefs.rightOpen }));

  const viewSwitch = <CenterViewSwitch view={prefs.centerView} onChange={(centerView) => updatePrefs({ centerView })} />;

  return (
    <ThreePanelLayout
      prefs={prefs}
      onChange={updatePrefs}
      left={{
        name: 'side panel',
        title: 'Extraction',
        header: (
          <div role="tablist" aria-label="Side panel tabs" className="flex gap-1">
            {leftTabs.map((candidate) => (
              <button
                key={candidate.id}
                type="button"
                role="tab"
                id={`${baseId}-${candidate.id}-tab`}
                aria-selected={leftTab === candidate.id}
                aria-controls={`${baseId}-${candidate.id}-panel`}
                onClick={() => setLeftTab(candidate.id)}
                className={`-mb-px border-b-2 px-2 py-2.5 text-sm font-medium ${leftTab === candidate.id ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
              >
                {candidate.label}
              </button>
            ))}
          </div>
        ),
        children: (
          <div
            role="tabpanel"
            id={`${baseId}-extraction-panel`}
            aria-labelledby={`${baseId}-extraction-tab`}
            hidden={leftTab !== 'extraction'}
          >
            <ExtractionPanel orgId={orgId} document={document} />
          </div>
        ),
      }}
      center={
        prefs.centerView === 'document' ? (
          <DocumentViewer orgId={orgId} document={document} toolbarStart={viewSwitch} />
        ) : (
          <>
            <ViewerToolbar start={viewSwitch} />
            <div className="min-h-0 flex-1 overflow-y-auto bg-slate-50 p-4">
              <DocumentText orgId={orgId} document={document} />
            </div>
          </>
        )
      }
      right={{
        name: 'agent panel',
        title: 'Agent',
        // The agent's row of controls goes into the header: the conversation gets that row's height.
        header: (
          <>
            <h2 className="sr-only">Agent</h2>
            <div ref={setChatControls} className="py-1.5" />
          </>
        ),
        children: (
          <ChatPanel
            orgId={orgId}
            subject={{ kind: 'document', id: document.id }}
            document={document}
            controlsSlot={chatControls}
          />
        ),
        fill: true,
      }}
    />
  );
}

function DocumentView({ orgId, documentId }: { orgId: string; documentId: string }) {
  const offerQuery = useModelOfferQuery(orgId);
  const [openedAt] = useState(() => Date.now());
  // With a model configured, the prompts start right after the text is ready: keep polling for them.
  const awaitingExtraction = (offerQuery.data?.models.length ?? 0) > 0 && Date.now() - openedAt < EXTRACTION_START_WAIT_MS;
  const documentQuery = useDocumentQuery(orgId, documentId, awaitingExtraction);
  useAdjacentDocumentShortcuts(orgId, documentId);

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
    <Workspace
      header={
        <>
          <DocumentHeader orgId={orgId} document={document} />
          {documentQuery.isError && (
            <ErrorAlert
              title="Could not refresh the document"
              error={documentQuery.error}
              onRetry={() => void documentQuery.refetch()}
            />
          )}
        </>
      }
    >
      {/* The field pointed at in the Extraction panel and its boxes in the viewer. */}
      <ActiveCitationProvider>
        <DocumentPanels orgId={orgId} document={document} />
      </ActiveCitationProvider>
    </Workspace>
  );
}

export function DocumentTextPage() {
  const org = useCurrentOrg();
  const { documentId } = useParams();
  // Keyed so that moving to another document starts from its own loading state.
  return documentId ? <DocumentView key={documentId} orgId={org.id} documentId={documentId} /> : null;
}
