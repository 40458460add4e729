import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { joinOcrLines, type OcrResult, type OcrSession } from './ocr.ts';
import { TextExtractionError } from './types.ts';

/** The English model shipped in node_modules: tesseract.js must never fetch one. */
function languageDataPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function recognizeWith(worker: Worker, image: Uint8Array): Promise<OcrResult> {
  const { data } = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: false });
  const words: OcrResult['words'] = [];
  const lines: Array<{ block: string; words: string[] }> = [];
  for (const [b, block] of (data.blocks ?? []).entries()) {
    for (const [p, paragraph] of block.paragraphs.entries()) {
      for (const line of paragraph.lines) {
        const texts: string[] = [];
        for (const word of line.words) {
          const text = word.text.trim();
          if (text === '') continue;
          texts.push(text);
          const { x0, y0, x1, y1 } = word.bbox;
          words.push({ text, x: x0, y: y0, width: x1 - x0, height: y1 - y0, confidence: Math.max(0, word.confidence) });
        }
        lines.push({ block: `${b}.${p}`, words: texts });
      }
    }
  }
  return { text: joinOcrLines(lines), words };
}

function failure(error: unknown): TextExtractionError {
  const detail = String((error as Error)?.message ?? error).replace(/^(Error: )+/, '');
  if (/read image/i.test(detail)) {
    return new TextExtractionError('malformed', `The image cannot be decoded (tesseract.js: ${detail}); upload a valid copy.`);
  }
  return new TextExtractionError('ocr_failed', `OCR (tesseract.js) failed: ${detail}`);
}

/** Resolves with the recognition, or rejects as soon as the signal aborts (the worker is then terminated by `close`). */
async function recognizeUntilAborted(worker: Worker, image: Uint8Array, signal: AbortSignal): Promise<OcrResult> {
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([recognizeWith(worker, image), aborted]);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw failure(error);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** tesseract.js (WebAssembly) with one worker for the document's pages; `close` terminates it. */
export async function tesseractJsSession(): Promise<OcrSession> {
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: languageDataPath(),
    gzip: true,
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job from its message listener, an
    // uncaught exception that ends the whole process; the job's promise still rejects.
    errorHandler: () => {},
  });
  return {
    engine: 'tesseract_js',
    recognize: (image, signal) => recognizeUntilAborted(worker, image, signal),
    close: async () => {
      await worker.terminate();
    },
  };
}
