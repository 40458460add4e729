/// <reference path="./pdfjs-worker-module.d.ts" />
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { definePDFJSModule, getDocumentProxy } from 'unpdf';

/**
 * Opening PDFs with pdf.js: unpdf pointed at pdfjs-dist's legacy build (the standard build
 * crashes on Node 24), so that text and rendering use one pdf.js.
 */

export interface PdfPageViewport {
  width: number;
  height: number;
  convertToViewportPoint(x: number, y: number): number[];
}

export interface PdfTextItem {
  str?: string;
  transform: number[];
  width: number;
  height: number;
}

export interface PdfPage {
  getViewport(options: { scale: number }): PdfPageViewport;
  getTextContent(): Promise<{ items: PdfTextItem[] }>;
  render(options: { canvas: unknown; canvasContext: unknown; viewport: PdfPageViewport }): { promise: Promise<void> };
  cleanup(): void;
}

export interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
}

/**
 * pdf.js reads these with fs.readFile on Node, so they must be paths, not file:// URLs
 * (unpdf's defaults are URLs: the standard fonts then fail to load and pages are drawn
 * with whatever system fonts happen to be installed, or with none).
 */
function pdfjsDataPaths(): { standardFontDataUrl: string; cMapUrl: string; wasmUrl: string } {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const folder = (name: string) => join(root, name) + sep;
  return { standardFontDataUrl: folder('standard_fonts'), cMapUrl: folder('cmaps'), wasmUrl: folder('wasm') };
}

let pdfjsReady: Promise<void> | undefined;

/**
 * Loads pdf.js, both its API and the part that parses (which pdf.js would otherwise import
 * at the first document): about 150 ms of module compilation. Later calls return at once.
 */
export function loadPdfjs(): Promise<void> {
  pdfjsReady ??= (async () => {
    // pdf.js parses in this thread when it finds its worker module here; on Node it has no other.
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    await definePDFJSModule(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  })();
  return pdfjsReady;
}

/**
 * Opens a PDF from its bytes; pdf.js takes ownership of them. `maxImagePixels` bounds the
 * images inside the PDF that pdf.js will decode, so a small file cannot claim gigabytes.
 * pdf.js 6 no longer evaluates font programs as code (its old `isEvalSupported` option is
 * gone), and bytes in memory mean it fetches nothing.
 */
export async function openPdf(bytes: Uint8Array, options: { maxImagePixels?: number } = {}): Promise<PdfDocument> {
  await loadPdfjs();
  const proxy = await getDocumentProxy(bytes, {
    ...pdfjsDataPaths(),
    useSystemFonts: false,
    stopAtErrors: true,
    verbosity: 0,
    maxImageSize: options.maxImagePixels ?? -1,
  });
  return proxy as unknown as PdfDocument;
}
