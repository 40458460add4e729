import { extractImageText } from './image-text.ts';
import { chooseOcrEngine, type OcrEngineName, openOcrSession } from './ocr.ts';
import { choosePdfEngine, type PdfEngineName } from './pdf-engine.ts';
import { extractPdfText } from './pdf-text.ts';
import { extractPlainText } from './plain-text.ts';
import {
  DEFAULT_TEXT_LIMITS,
  type DocumentKind,
  type PageProgress,
  type TextExtraction,
  TextExtractionError,
  type TextExtractionLimits,
} from './types.ts';
import { extractXlsxText } from './xlsx-text.ts';

/** Rendering resolution for OCR: enough for body text, at half the pixels of 300 DPI. */
const OCR_DPI = 200;

export interface ExtractTextOptions {
  limits?: Partial<TextExtractionLimits>;
  /** Overrides the engine choice (DOCAGENT_OCR_ENGINE, else the CLI when installed). */
  ocrEngine?: OcrEngineName;
  /** Overrides the PDF text engine choice (DOCAGENT_PDF_ENGINE, else pdftotext when installed). */
  pdfEngine?: PdfEngineName;
  /** Told as the pages of a PDF or an image get their text; a text file's one page is read at once. */
  onPage?: PageProgress;
}

function describeDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/**
 * The text of a document, per page, with positions: text files as they are, PDF text
 * layers, and OCR for images and for PDF pages without a usable text layer. Failures a
 * person must act on are `TextExtractionError`s; anything else is worth another attempt.
 */
export async function extractDocumentText(
  input: { bytes: Uint8Array; kind: DocumentKind },
  options: ExtractTextOptions = {},
): Promise<TextExtraction> {
  const limits = { ...DEFAULT_TEXT_LIMITS, ...options.limits };
  if (input.kind === 'text' || input.kind === 'markdown' || input.kind === 'csv') return extractPlainText(input.bytes);
  if (input.kind === 'xlsx') return extractXlsxText(input.bytes);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  // The engine is chosen when a page needs it: a text PDF never asks for one.
  const ocr = async () => openOcrSession(await chooseOcrEngine(options.ocrEngine));
  try {
    if (input.kind === 'image')
      return await extractImageText(input.bytes, { maxImagePixels: limits.maxImagePixels, ocr, signal, onPage: options.onPage });
    return await extractPdfText(input.bytes, {
      engine: await choosePdfEngine(options.pdfEngine),
      maxPages: limits.maxPages,
      maxImagePixels: limits.maxImagePixels,
      dpi: OCR_DPI,
      ocr,
      signal,
      onPage: options.onPage,
    });
  } catch (error) {
    if (!signal.aborted || error instanceof TextExtractionError) throw error;
    throw new TextExtractionError(
      'timeout',
      `Text extraction did not finish within the limit of ${describeDuration(limits.timeoutMs)} for the whole document; split it into smaller files, or ask the administrator to raise TEXT_TIMEOUT_SECONDS.`,
      { cause: error },
    );
  }
}
