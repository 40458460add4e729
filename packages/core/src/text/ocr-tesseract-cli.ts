import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandHost } from './command-host.ts';
import { joinOcrLines, type OcrResult, type OcrSession } from './ocr.ts';
import { TextExtractionError } from './types.ts';

/**
 * One OpenMP thread unless the operator says otherwise: on a page at a time, tesseract's
 * threads cost more than they give (measured: 0.40 s a page with 2 threads, 0.25 s with 1),
 * and several documents are read in parallel anyway.
 */
const tesseractEnv = (): Record<string, string> => ({
  OMP_THREAD_LIMIT: process.env.OMP_THREAD_LIMIT ?? '1',
  ...(process.env.TESSDATA_PREFIX ? { TESSDATA_PREFIX: process.env.TESSDATA_PREFIX } : {}),
});

/** Leptonica's words for an image it could not decode. */
const UNDECODABLE = /pixRead|cannot be read|Unsupported image type|libpng error|jpeg error/i;

function failure(code: number | null, stderr: string): TextExtractionError {
  const lines = stderr.trim().split('\n');
  const undecodable = lines.find((line) => UNDECODABLE.test(line));
  if (undecodable) {
    const why = undecodable.replace(/^Error in \w+: /, '');
    return new TextExtractionError('malformed', `The image cannot be decoded (${why}); upload a valid copy.`);
  }
  const detail = lines.slice(-3).join(' ') || `exit code ${code}`;
  return new TextExtractionError(
    'ocr_failed',
    `OCR (the tesseract command) failed: ${detail}. Try again; if it keeps failing, the administrator should check the tesseract-ocr installation or set DOCAGENT_OCR_ENGINE=tesseract_js.`,
  );
}

/** Runs `tesseract <file> stdout tsv` (through the command host) and returns the TSV it prints. */
async function runTesseract(input: string, signal: AbortSignal): Promise<string> {
  const decoder = new TextDecoder();
  let tsv = '';
  let exit: { code: number | null; stderr: string };
  try {
    exit = await commandHost.run('tesseract', [input, 'stdout', '-l', 'eng', 'tsv'], {
      input: new Uint8Array(),
      env: tesseractEnv(),
      signal,
      onOutput: (chunk) => {
        tsv += decoder.decode(chunk, { stream: true });
      },
    });
  } catch (error) {
    throw signal.aborted ? signal.reason : error;
  }
  if (signal.aborted) throw signal.reason;
  // The temporary path means nothing to the person reading the message.
  if (exit.code !== 0) throw failure(exit.code, exit.stderr.replaceAll(input, 'the image'));
  return tsv + decoder.decode();
}

/**
 * The image goes to tesseract as a file in a folder of our own (mode 0700), removed after:
 * tesseract reads stdin through a character stream, which costs about 0.1 s on a page.
 */
async function recognizeFile(image: Uint8Array, signal: AbortSignal): Promise<OcrResult> {
  const dir = await mkdtemp(join(tmpdir(), 'docagent-ocr-'));
  try {
    const input = join(dir, 'image');
    await writeFile(input, image);
    return parseTesseractTsv(await runTesseract(input, signal));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Words and lines from tesseract's TSV (level 5 rows are words; block, paragraph and line numbers group them). */
export function parseTesseractTsv(tsv: string): OcrResult {
  const words: OcrResult['words'] = [];
  const lines: Array<{ key: string; block: string; words: string[] }> = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    const text = cols.slice(11).join('\t').trim();
    if (text === '') continue;
    const [, page, block, par, line, , left, top, width, height, conf] = cols.map(Number);
    words.push({ text, x: left!, y: top!, width: width!, height: height!, confidence: Math.max(0, conf!) });
    const key = `${page}.${block}.${par}.${line}`;
    if (lines.at(-1)?.key !== key) lines.push({ key, block: `${page}.${block}.${par}`, words: [] });
    lines.at(-1)!.words.push(text);
  }
  return { text: joinOcrLines(lines), words };
}

/** Debian's `tesseract` command, one process per page; nothing to set up or free. */
export function tesseractCliSession(): OcrSession {
  return {
    engine: 'tesseract_cli',
    recognize: recognizeFile,
    close: async () => {},
  };
}
