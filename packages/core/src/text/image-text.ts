import { checkImageSize } from './image-guard.ts';
import type { OcrSession } from './ocr.ts';
import { countPagesDone } from './pages-done.ts';
import type { PageProgress, TextExtraction } from './types.ts';

/** An image's text by OCR, as one page measured in pixels; its size is checked before anything decodes it. */
export async function extractImageText(
  bytes: Uint8Array,
  options: { maxImagePixels: number; ocr: () => Promise<OcrSession>; signal: AbortSignal; onPage?: PageProgress },
): Promise<TextExtraction> {
  const { width, height } = checkImageSize(bytes, options.maxImagePixels);
  const pageDone = countPagesDone(1, options.onPage);
  const session = await options.ocr();
  try {
    const { text, words } = await session.recognize(bytes, options.signal);
    pageDone();
    return { pageCount: 1, pages: [{ page: 1, text, width, height, engine: session.engine, items: words }] };
  } finally {
    await session.close();
  }
}
