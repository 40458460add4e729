import { lazy, type ReactNode, Suspense } from 'react';
import { documentFileUrl } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { LoadingState } from '../components/LoadingState';
import { ImageViewer } from './ImageViewer';
import { TextFileViewer } from './TextFileViewer';
import { ViewerToolbar } from './ViewerToolbar';

// PDF.js is large: it loads with the first PDF shown.
const PdfViewer = lazy(() => import('./PdfViewer'));

/** The document's own file: a PDF, an image, or text. `toolbarStart` goes first in the viewer's toolbar. */
export function DocumentViewer({
  orgId,
  document,
  toolbarStart,
}: {
  orgId: string;
  document: DocumentSummary;
  toolbarStart?: ReactNode;
}) {
  const url = documentFileUrl(orgId, document.id);
  switch (document.kind) {
    case 'pdf':
      return (
        <Suspense
          fallback={
            <div className="flex min-h-0 flex-1 flex-col">
              <ViewerToolbar start={toolbarStart} />
              <LoadingState label="Loading the PDF viewer…" />
            </div>
          }
        >
          <PdfViewer url={url} toolbarStart={toolbarStart} />
        </Suspense>
      );
    case 'image':
      return <ImageViewer url={url} name={document.document_name} toolbarStart={toolbarStart} />;
    default:
      return <TextFileViewer url={url} toolbarStart={toolbarStart} />;
  }
}
