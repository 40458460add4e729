/** What kind of document a file is, decided from its bytes. */
export type DocumentKind = 'pdf' | 'image' | 'text' | 'markdown' | 'csv' | 'xlsx';

/** Which engine produced a page's text. */
export type TextEngine = 'pdf_text' | 'tesseract_cli' | 'tesseract_js' | 'plain';

/**
 * A piece of positioned text: a word (OCR, and PDF text layers read by pdftotext) or a text
 * run (PDF text layers read by pdf.js). Coordinates are in the page's own units (PDF points
 * for PDFs, pixels for images) with the origin at the top-left corner of the visible page
 * (the crop box), y growing downwards. A PDF word's box spans the font's ascent to its
 * descent with pdftotext, the font size above the baseline with pdf.js: the same x, and
 * tops and bottoms a fraction of the font size apart.
 */
export interface PositionedText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** 0..100 for OCR words; absent for a PDF text layer. */
  confidence?: number;
}

export interface PageText {
  /** 1-based. */
  page: number;
  text: string;
  width: number;
  height: number;
  engine: TextEngine;
  items: PositionedText[];
}

export interface TextExtraction {
  pageCount: number;
  pages: PageText[];
}

/** Told, as a document's pages get their final text, how many of all its pages have it so far. */
export type PageProgress = (done: number, total: number) => void;

export interface TextExtractionLimits {
  /** Whole-document wall-clock limit. */
  timeoutMs: number;
  /** PDFs with more pages are refused before any page is read. */
  maxPages: number;
  /** Images (and rendered pages) over this many pixels are refused (decompression bombs). */
  maxImagePixels: number;
}

export const DEFAULT_TEXT_LIMITS: TextExtractionLimits = {
  timeoutMs: 10 * 60_000,
  maxPages: 2000,
  maxImagePixels: 100_000_000,
};

/** Why text extraction failed, in words a person can act on (stored on the document). */
export class TextExtractionError extends Error {
  readonly reason: 'encrypted' | 'malformed' | 'too_many_pages' | 'too_large' | 'timeout' | 'unsupported' | 'ocr_failed';
  constructor(reason: TextExtractionError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TextExtractionError';
    this.reason = reason;
  }
}
