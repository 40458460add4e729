import { Worker } from 'node:worker_threads';
import type { OcrResult, OcrSession } from './ocr.ts';
import { countPagesDone } from './pages-done.ts';
import type { PdfEngineName } from './pdf-engine.ts';
import { readPdfTextWithPoppler } from './pdf-poppler.ts';
import type { PdfWorkerInput, PdfWorkerMessage, PdfWorkerRequest } from './pdf-worker-protocol.ts';
import { type PageProgress, type PageText, type PositionedText, type TextExtraction, TextExtractionError } from './types.ts';

const WORKER_URL = new URL('./pdf-worker.ts', import.meta.url);

/** pdf.js's heap in the worker: ample for long documents, and a hostile one cannot exhaust the server's. */
const WORKER_HEAP_MB = 1024;

type Received<T extends PdfWorkerMessage['type']> = Extract<PdfWorkerMessage, { type: T }>;

/** Why the thread itself failed: out of memory is the PDF's doing; anything else is worth a retry. */
function threadFailure(error: Error & { code?: string }): Error {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return new TextExtractionError(
      'too_large',
      `Reading the PDF needed more than ${WORKER_HEAP_MB} MB of memory; upload a smaller or simpler copy (for example split it, or print it to a new PDF).`,
      { cause: error },
    );
  }
  return new Error(`the PDF worker thread failed: ${error.message}`, { cause: error });
}

const startThread = () => new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });

/**
 * A started thread waiting for the next document. Loading pdf.js costs a thread about
 * 150 ms, most of a small PDF's time, so each document's thread starts one for the next
 * while it works. It is unref'd: an idle spare never keeps the process alive.
 */
let spare: Worker | undefined;

function takeThread(): Worker {
  const thread = spare ?? startThread();
  const next = startThread();
  next.unref();
  next.once('exit', () => {
    if (spare === next) spare = undefined;
  });
  spare = next;
  thread.ref();
  return thread;
}

/** The PDF worker thread seen as a queue of messages; a failure ends the queue. */
class PdfWorkerThread {
  private readonly worker: Worker;
  private readonly inbox: Array<PdfWorkerMessage | Error> = [];
  private waiting: ((message: PdfWorkerMessage | Error) => void) | undefined;

  constructor(input: PdfWorkerInput) {
    // A copy of its own to hand over (the caller keeps its bytes; a Buffer may share memory
    // that cannot be transferred). Not `.slice()`: on a Buffer that is a view, not a copy.
    const bytes = new Uint8Array(input.bytes);
    this.worker = takeThread();
    this.worker.on('message', (message: PdfWorkerMessage) => this.deliver(message));
    this.worker.on('error', (error) => this.deliver(threadFailure(error)));
    this.worker.on('exit', (code) => this.deliver(new Error(`the PDF worker thread stopped (exit code ${code})`)));
    this.send({ type: 'open', input: { ...input, bytes } }, [bytes.buffer]);
  }

  private deliver(message: PdfWorkerMessage | Error): void {
    const resolve = this.waiting;
    this.waiting = undefined;
    if (resolve) resolve(message);
    else this.inbox.push(message);
  }

  async next<T extends PdfWorkerMessage['type']>(...expected: T[]): Promise<Received<T>> {
    const message = this.inbox.shift() ?? (await new Promise<PdfWorkerMessage | Error>((resolve) => (this.waiting = resolve)));
    if (message instanceof Error) throw message;
    if (message.type === 'failed') throw new TextExtractionError(message.reason, message.message);
    if (!(expected as string[]).includes(message.type)) {
      throw new Error(`the PDF worker thread sent "${message.type}" where "${expected.join('" or "')}" was due`);
    }
    return message as Received<T>;
  }

  send(request: PdfWorkerRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(request, transfer);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

/** OCR boxes are in image pixels; the page's items are in PDF points, inside the page box. */
function toPagePoints(words: OcrResult['words'], scale: number, page: PageText): PositionedText[] {
  return words.map((word) => {
    const x = Math.min(word.x / scale, page.width);
    const y = Math.min(word.y / scale, page.height);
    return {
      ...word,
      x,
      y,
      width: Math.min(word.width / scale, page.width - x),
      height: Math.min(word.height / scale, page.height - y),
    };
  });
}

/**
 * OCR of the pages without a usable text layer, in page order, one at a time: the worker
 * renders a page only when the previous one is read, so at most one page image is in memory.
 */
async function ocrPages(
  worker: PdfWorkerThread,
  scanned: PageText[],
  options: PdfTextOptions,
  pageDone: () => void,
): Promise<void> {
  let session: OcrSession | undefined;
  try {
    for (const page of scanned) {
      worker.send({ type: 'render', page: page.page });
      const { image, scale } = await worker.next('rendered');
      session ??= await options.ocr();
      const result = await session.recognize(image, options.signal);
      page.engine = session.engine;
      page.text = result.text;
      page.items = toPagePoints(result.words, scale, page);
      pageDone();
    }
  } finally {
    await session?.close();
  }
}

interface PdfTextOptions {
  engine: PdfEngineName;
  maxPages: number;
  maxImagePixels: number;
  dpi: number;
  ocr: () => Promise<OcrSession>;
  signal: AbortSignal;
  onPage?: PageProgress;
}

/**
 * Runs `work` with a pdf.js worker thread for the PDF; the signal ends the thread at once.
 * With `readText` false the thread reads no text layer and only renders pages for OCR.
 */
async function withPdfWorker<T>(
  bytes: Uint8Array,
  options: PdfTextOptions & { readText: boolean },
  work: (worker: PdfWorkerThread) => Promise<T>,
): Promise<T> {
  const { maxPages, maxImagePixels, dpi, readText } = options;
  const worker = new PdfWorkerThread({ bytes, maxPages, maxImagePixels, dpi, readText });
  const stop = () => void worker.terminate();
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    return await work(worker);
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    throw error;
  } finally {
    options.signal.removeEventListener('abort', stop);
    await worker.terminate();
  }
}

/** Text layers by pdf.js in the worker thread, then OCR of the pages that have none. */
function extractWithPdfjs(bytes: Uint8Array, options: PdfTextOptions): Promise<TextExtraction> {
  return withPdfWorker(bytes, { ...options, readText: true }, async (worker) => {
    const { pageCount } = await worker.next('opened');
    const pageDone = countPagesDone(pageCount, options.onPage);
    const pages: PageText[] = [];
    const scanned: PageText[] = [];
    for (
      let message = await worker.next('page', 'text_done');
      message.type === 'page';
      message = await worker.next('page', 'text_done')
    ) {
      const { page, width, height, text, items } = message;
      pages.push({ page, width, height, text, items, engine: 'pdf_text' });
      if (message.needsOcr) scanned.push(pages.at(-1)!);
      else pageDone();
    }
    await ocrPages(worker, scanned, options, pageDone);
    return { pageCount, pages };
  });
}

/**
 * Text layers by poppler; a pdf.js thread is started only when a page needs OCR, to render
 * it (so a text PDF costs no thread at all).
 */
async function extractWithPoppler(bytes: Uint8Array, options: PdfTextOptions): Promise<TextExtraction> {
  const { pageCount, pages: read } = await readPdfTextWithPoppler(bytes, options);
  const pages: PageText[] = read.map(({ needsOcr: _, ...page }) => page);
  const scanned = pages.filter((_, i) => read[i]!.needsOcr);
  // pdftotext hands every text layer over at the end: those pages are done at once.
  const pageDone = countPagesDone(pageCount, options.onPage);
  pageDone(pages.length - scanned.length);
  if (scanned.length > 0) {
    await withPdfWorker(bytes, { ...options, readText: false }, async (worker) => {
      await worker.next('opened');
      await worker.next('text_done');
      await ocrPages(worker, scanned, options, pageDone);
    });
  }
  return { pageCount, pages };
}

/**
 * A PDF's text: the text layer of every page, read by the chosen engine (pdftotext or
 * pdf.js, see `choosePdfEngine`), then OCR of the pages that have none, in page order.
 */
export function extractPdfText(bytes: Uint8Array, options: PdfTextOptions): Promise<TextExtraction> {
  return options.engine === 'pdftotext' ? extractWithPoppler(bytes, options) : extractWithPdfjs(bytes, options);
}
