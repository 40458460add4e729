import { createCanvas } from '@napi-rs/canvas';
import { definePDFJSModule, getDocumentProxy } from 'unpdf';

/**
 * Opening and rendering PDFs with pdf.js. unpdf opens documents with the settings Node
 * needs (standard fonts and CMaps from pdfjs-dist); it is pointed at pdfjs-dist's legacy
 * build, which runs on Node 24, so text and rendering use one pdf.js.
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
  hasEOL?: boolean;
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

let pdfjsReady: Promise<void> | undefined;

export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  pdfjsReady ??= definePDFJSModule(() => import('pdfjs-dist/legacy/build/pdf.mjs'));
  await pdfjsReady;
  return (await getDocumentProxy(bytes, { stopAtErrors: true, verbosity: 0 })) as unknown as PdfDocument;
}

/** The page as a PNG, `scale` pixels per PDF point, on white. */
export async function renderPdfPage(page: PdfPage, scale: number): Promise<Uint8Array> {
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  return new Uint8Array(await canvas.encode('png'));
}
