import { checkImageSize } from './image-guard.ts';
import { chooseOcrEngine, type OcrEngineName, openOcrSession } from './ocr.ts';
import { extractPdfText } from './pdf-text.ts';
import { extractPlainText } from './plain-text.ts';
import {
  DEFAULT_TEXT_LIMITS,
  type DocumentKind,
  type TextExtraction,
  TextExtractionError,
  type TextExtractionLimits,
} from './types.ts';

/** Rendering resolution for OCR: enough for body text, at a third of the cost of 300 DPI. */
const OCR_DPI = 200;

export interface ExtractTextOptions {
  limits?: Partial<TextExtractionLimits>;
  /** Overrides the engine choice (DOCAGENT_OCR_ENGINE, else the CLI when installed). */
  ocrEngine?: OcrEngineName;
}

async function ocrImage(
  bytes: Uint8Array,
  limits: TextExtractionLimits,
  engine: OcrEngineName,
  signal: AbortSignal,
): Promise<TextExtraction> {
  const { width, height } = checkImageSize(bytes, limits.maxImagePixels);
  const session = await openOcrSession(engine);
  try {
    const result = await session.recognize(bytes, signal);
    return { pageCount: 1, pages: [{ page: 1, text: result.text, width, height, engine: session.engine, items: result.words }] };
  } finally {
    await session.close();
  }
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
  const engine = chooseOcrEngine(options.ocrEngine);
  const seconds = Math.round(limits.timeoutMs / 1000);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const timedOut = () =>
    new TextExtractionError(
      'timeout',
      `Text extraction took longer than the limit of ${seconds} s; split the document or raise TEXT_TIMEOUT_SECONDS.`,
    );
  try {
    if (input.kind === 'image') return await ocrImage(input.bytes, limits, engine, signal);
    return await extractPdfText(input.bytes, {
      maxPages: limits.maxPages,
      maxImagePixels: limits.maxImagePixels,
      dpi: OCR_DPI,
      ocr: () => openOcrSession(engine),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw timedOut();
    throw error;
  }
}
