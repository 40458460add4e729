import { parentPort, workerData } from 'node:worker_threads';
import { openPdf, type PdfDocument, type PdfPage, type PdfTextItem, renderPdfPage } from './pdf-document.ts';
import type { PdfWorkerInput, PdfWorkerMessage, PdfWorkerRequest } from './pdf-worker-protocol.ts';
import type { PositionedText, TextExtractionError } from './types.ts';

/**
 * Runs in a worker thread: everything pdf.js does with an untrusted PDF (parsing, text,
 * rendering) happens here, so a hostile file can stall or crash this thread and the time
 * limit can end it, while the server's event loop carries on.
 */

// A page whose text layer has fewer visible characters than this is treated as a scan.
const MIN_TEXT_CHARACTERS = 16;

const input = workerData as PdfWorkerInput;
const port = parentPort!;
const post = (message: PdfWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

function classify(error: unknown): { reason: TextExtractionError['reason']; message: string } {
  const name = (error as { name?: string }).name;
  const detail = (error as Error).message ?? String(error);
  if (name === 'PasswordException') {
    return { reason: 'encrypted', message: 'The PDF is password-protected; upload a copy without a password.' };
  }
  return { reason: 'malformed', message: `The PDF cannot be read (${detail}); upload a valid copy.` };
}

/** A complete PDF ends with %%EOF (trailing bytes are tolerated); pdf.js would quietly read half a file. */
function looksTruncated(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 2048))).toString('latin1');
  return !tail.includes('%%EOF');
}

function pageText(items: PdfTextItem[]): string {
  let text = '';
  for (const item of items) {
    if (item.str === undefined) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
}

function positioned(items: PdfTextItem[], page: PdfPage): PositionedText[] {
  const viewport = page.getViewport({ scale: 1 });
  const result: PositionedText[] = [];
  for (const item of items) {
    if (!item.str || item.str.trim() === '') continue;
    const [x = 0, baseline = 0] = viewport.convertToViewportPoint(item.transform[4]!, item.transform[5]!);
    const top = Math.max(0, baseline - item.height);
    result.push({
      text: item.str,
      x: Math.min(Math.max(0, x), viewport.width),
      y: Math.min(top, viewport.height),
      width: Math.max(0, Math.min(item.width, viewport.width - x)),
      height: Math.max(0, Math.min(item.height, viewport.height - top)),
    });
  }
  return result;
}

async function main(): Promise<void> {
  if (looksTruncated(input.bytes)) {
    post({
      type: 'failed',
      reason: 'malformed',
      message: 'The PDF is truncated (it has no end-of-file marker); upload the complete file.',
    });
    return;
  }
  let pdf: PdfDocument;
  try {
    pdf = await openPdf(input.bytes);
  } catch (error) {
    post({ type: 'failed', ...classify(error) });
    return;
  }
  if (pdf.numPages > input.maxPages) {
    post({
      type: 'failed',
      reason: 'too_many_pages',
      message: `The PDF has ${pdf.numPages} pages; the limit is ${input.maxPages}. Split it into smaller files.`,
    });
    return;
  }
  post({ type: 'opened', pageCount: pdf.numPages });
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const { items } = await page.getTextContent();
      const text = pageText(items);
      const { width, height } = page.getViewport({ scale: 1 });
      const needsOcr = text.replace(/\s/g, '').length < MIN_TEXT_CHARACTERS;
      post({ type: 'page', page: n, width, height, text, items: needsOcr ? [] : positioned(items, page), needsOcr });
      page.cleanup();
    }
  } catch (error) {
    post({ type: 'failed', ...classify(error) });
    return;
  }
  post({ type: 'text_done' });

  // The pipeline asks for scanned pages one at a time, and ends this thread when it is done.
  port.on('message', async (request: PdfWorkerRequest) => {
    try {
      const page = await pdf.getPage(request.page);
      const { width, height } = page.getViewport({ scale: 1 });
      const fit = Math.sqrt(input.maxImagePixels / (width * height));
      const scale = Math.min(input.dpi / 72, fit);
      const png = await renderPdfPage(page, scale);
      page.cleanup();
      post({ type: 'rendered', page: request.page, png, scale }, [png.buffer as ArrayBuffer]);
    } catch (error) {
      post({
        type: 'failed',
        reason: 'ocr_failed',
        message: `Page ${request.page} could not be rendered for OCR: ${(error as Error).message}`,
      });
    }
  });
}

main().catch((error: unknown) => post({ type: 'failed', ...classify(error) }));
