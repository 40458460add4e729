import type { PositionedText, TextExtractionError } from './types.ts';

/** Messages between the PDF worker thread and the text pipeline. */

export interface PdfWorkerInput {
  bytes: Uint8Array;
  maxPages: number;
  maxImagePixels: number;
  /** Resolution at which pages without a text layer are rendered for OCR. */
  dpi: number;
  /** False when another engine has read the text layers: the thread only renders pages for OCR. */
  readText: boolean;
}

export type PdfWorkerRequest = { type: 'open'; input: PdfWorkerInput } | { type: 'render'; page: number };

export type PdfWorkerMessage =
  | { type: 'opened'; pageCount: number }
  | { type: 'page'; page: number; width: number; height: number; text: string; items: PositionedText[]; needsOcr: boolean }
  | { type: 'text_done' }
  /** An image of the page for OCR (PGM), `scale` image pixels per PDF point. */
  | { type: 'rendered'; page: number; image: Uint8Array; scale: number }
  | { type: 'failed'; reason: TextExtractionError['reason']; message: string };
