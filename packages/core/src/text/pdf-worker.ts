import { parentPort } from 'node:worker_threads';
import { loadPdfjs, openPdf, type PdfDocument } from './pdf-document.ts';
import { renderPdfPageForOcr } from './pdf-render.ts';
import { needsOcr, readTextLayer } from './pdf-text-layer.ts';
import { looksTruncated, TRUNCATED_PDF_MESSAGE } from './pdf-truncation.ts';
import type { PdfWorkerInput, PdfWorkerMessage, PdfWorkerRequest } from './pdf-worker-protocol.ts';
import type { TextExtractionError } from './types.ts';

/**
 * Runs in a worker thread: everything pdf.js does with an untrusted PDF (parsing, text,
 * rendering) happens here, so a hostile file can stall or crash this thread and the time
 * limit can end it, while the server's event loop carries on. A thread reads one document:
 * it loads pdf.js as soon as it starts, then waits for the document to arrive.
 */

const port = parentPort!;
const post = (message: PdfWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function classify(error: unknown): { reason: TextExtractionError['reason']; message: string } {
  if ((error as { name?: string }).name === 'PasswordException') {
    return { reason: 'encrypted', message: 'The PDF is password-protected; upload an unprotected copy.' };
  }
  const detail = (error as Error).message ?? String(error);
  return { reason: 'malformed', message: `The PDF cannot be read (${detail}); upload a valid copy.` };
}

async function readTextLayers(pdf: PdfDocument): Promise<void> {
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const layer = readTextLayer((await page.getTextContent()).items, viewport);
    const scanned = needsOcr(layer.text);
    post({
      type: 'page',
      page: n,
      width: viewport.width,
      height: viewport.height,
      text: scanned ? '' : layer.text,
      items: scanned ? [] : layer.items,
      needsOcr: scanned,
    });
    page.cleanup();
  }
}

async function render(pdf: PdfDocument, input: PdfWorkerInput, request: { page: number }): Promise<void> {
  const page = await pdf.getPage(request.page);
  const { width, height } = page.getViewport({ scale: 1 });
  // The OCR resolution, unless the page is so large that it would pass the pixel limit.
  const scale = Math.min(input.dpi / 72, Math.sqrt(input.maxImagePixels / (width * height)));
  const image = await renderPdfPageForOcr(page, scale);
  page.cleanup();
  post({ type: 'rendered', page: request.page, image, scale }, [image.buffer as ArrayBuffer]);
}

async function read(input: PdfWorkerInput): Promise<void> {
  if (looksTruncated(input.bytes)) {
    post({ type: 'failed', reason: 'malformed', message: TRUNCATED_PDF_MESSAGE });
    return;
  }
  let pdf: PdfDocument;
  try {
    pdf = await openPdf(input.bytes, { maxImagePixels: input.maxImagePixels });
  } catch (error) {
    post({ type: 'failed', ...classify(error) });
    return;
  }
  // Counted from the page tree before any page is read: a huge PDF costs nothing to refuse.
  if (pdf.numPages > input.maxPages) {
    post({
      type: 'failed',
      reason: 'too_many_pages',
      message: `The PDF has ${pdf.numPages} pages; the limit is ${input.maxPages}. Split it into smaller files and upload those.`,
    });
    return;
  }
  post({ type: 'opened', pageCount: pdf.numPages });
  try {
    if (input.readText) await readTextLayers(pdf);
  } catch (error) {
    post({ type: 'failed', ...classify(error) });
    return;
  }
  post({ type: 'text_done' });

  // The pipeline asks for pages to OCR one at a time, and ends this thread when it is done.
  port.on('message', (request: PdfWorkerRequest) => {
    if (request.type !== 'render') return;
    render(pdf, input, request).catch((error: unknown) =>
      post({
        type: 'failed',
        reason: 'ocr_failed',
        message: `Page ${request.page} could not be rendered for OCR (${(error as Error).message ?? error}); upload a valid copy.`,
      }),
    );
  });
}

// Loading fails only if the installation is broken; the document's turn reports it then.
const loading = loadPdfjs().catch(() => {});
port.once('message', (request: PdfWorkerRequest) => {
  if (request.type !== 'open') return;
  loading.then(() => read(request.input)).catch((error: unknown) => post({ type: 'failed', ...classify(error) }));
});
