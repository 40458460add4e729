import type { DocumentSummary } from '../api/types';
import { LoadingState } from '../components/LoadingState';

/** Where the document's prompts stand, when that is worth saying: running, failed, or waiting for the text. */
export function ExtractionStatus({ document }: { document: DocumentSummary }) {
  switch (document.state) {
    case 'uploaded':
    case 'ocr_processing':
      return <LoadingState label="The prompts run once the text is extracted." />;
    case 'ocr_failed':
      return <p className="text-sm text-slate-600">The prompts cannot run: text extraction failed.</p>;
    case 'llm_processing':
      return <LoadingState label="Running the prompts on this document… Results show here as they finish." />;
    case 'llm_failed':
      return (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="font-medium">Data extraction failed</p>
          <p className="mt-1 whitespace-pre-wrap break-words">{document.state_error ?? 'The server did not record why.'}</p>
          <p className="mt-2 text-red-700">Run the failed prompts again below once the cause is fixed.</p>
        </div>
      );
    default:
      return null;
  }
}
