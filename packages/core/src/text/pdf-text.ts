import { Worker } from 'node:worker_threads';
import type { OcrSession } from './ocr.ts';
import type { PdfWorkerInput, PdfWorkerMessage, PdfWorkerRequest } from './pdf-worker-protocol.ts';
import { type PageText, type TextExtraction, TextExtractionError } from './types.ts';

const WORKER_URL = new URL('./pdf-worker.ts', import.meta.url);

/** The PDF worker thread seen as a queue of messages. */
class PdfWorker {
  private readonly worker: Worker;
  private readonly inbox: PdfWorkerMessage[] = [];
  private waiting: ((message: PdfWorkerMessage) => void) | undefined;
  private failure: Error | undefined;

  constructor(input: PdfWorkerInput) {
    // A copy of its own to hand over: a Buffer may sit in Node's shared pool, which cannot move.
    const bytes = new Uint8Array(input.bytes);
    this.worker = new Worker(WORKER_URL, { workerData: { ...input, bytes }, transferList: [bytes.buffer] });
    this.worker.on('message', (message: PdfWorkerMessage) => this.deliver(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the PDF worker stopped (exit code ${code})`)));
  }

  private deliver(message: PdfWorkerMessage): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve(message);
    } else this.inbox.push(message);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.deliver({ type: 'failed', reason: 'malformed', message: '' });
  }

  async next(): Promise<PdfWorkerMessage> {
    const message = this.inbox.shift() ?? (await new Promise<PdfWorkerMessage>((resolve) => (this.waiting = resolve)));
    if (message.type === 'failed') {
      if (message.message === '' && this.failure) throw this.failure;
      throw new TextExtractionError(message.reason, message.message);
    }
    return message;
  }

  send(request: PdfWorkerRequest): void {
    this.worker.postMessage(request);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * A PDF's text: the text layer of every page, and OCR of the pages that have none (the
 * worker renders them one at a time, so one page image at most is in memory).
 */
export async function extractPdfText(
  bytes: Uint8Array,
  options: { maxPages: number; maxImagePixels: number; dpi: number; ocr: () => Promise<OcrSession>; signal: AbortSignal },
): Promise<TextExtraction> {
  const worker = new PdfWorker({ bytes, maxPages: options.maxPages, maxImagePixels: options.maxImagePixels, dpi: options.dpi });
  const stop = () => void worker.terminate();
  options.signal.addEventListener('abort', stop, { once: true });
  let session: OcrSession | undefined;
  try {
    const opened = await worker.next();
    if (opened.type !== 'opened') throw new Error(`unexpected message from the PDF worker: ${opened.type}`);
    const pages: PageText[] = [];
    const scans: PageText[] = [];
    for (let message = await worker.next(); message.type !== 'text_done'; message = await worker.next()) {
      if (message.type !== 'page') throw new Error(`unexpected message from the PDF worker: ${message.type}`);
      const page: PageText = {
        page: message.page,
        text: message.text,
        width: message.width,
        height: message.height,
        engine: 'pdf_text',
        items: message.items,
      };
      pages.push(page);
      if (message.needsOcr) scans.push(page);
    }
    for (const page of scans) {
      worker.send({ type: 'render', page: page.page });
      const rendered = await worker.next();
      if (rendered.type !== 'rendered') throw new Error(`unexpected message from the PDF worker: ${rendered.type}`);
      session ??= await options.ocr();
      const result = await session.recognize(rendered.png, options.signal);
      // OCR boxes are in image pixels; the page's positions are in PDF points.
      const k = 1 / rendered.scale;
      page.engine = session.engine;
      page.text = result.text;
      page.items = result.words.map((w) => ({ ...w, x: w.x * k, y: w.y * k, width: w.width * k, height: w.height * k }));
    }
    return { pageCount: opened.pageCount, pages };
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    throw error;
  } finally {
    options.signal.removeEventListener('abort', stop);
    await session?.close();
    await worker.terminate();
  }
}
