import { mayTurnPagesAQuarter } from './pdf-quarter-turns.ts';
import { needsOcr } from './pdf-text-layer.ts';
import { insidePage, type TextRun, textOfRuns } from './pdf-text-lines.ts';
import { looksTruncated, TRUNCATED_PDF_MESSAGE } from './pdf-truncation.ts';
import { type BboxPage, PdftotextBboxReader } from './pdftotext-bbox.ts';
import { runPopplerCommand } from './poppler-command.ts';
import { type PageText, TextExtractionError } from './types.ts';

/**
 * A PDF's text layer read by poppler: `pdftotext -bbox -raw -cropbox` prints every word with its
 * box, and `pdfinfo` gives each page's rotation where a page may be turned a quarter.
 * `-raw` keeps the content stream's order, the order pdf.js gives, so that one line
 * grouping serves both engines; `-cropbox` measures pages by the crop box, as pdf.js's
 * viewport does, so boxes share its origin (top-left of the visible page, y downwards).
 * Both read the PDF from their stdin: no copy of it is written to disk.
 */

/** pdftotext -bbox prints about 100 bytes a word: room for 2,000 dense pages. */
const MAX_TEXT_OUTPUT_BYTES = 256_000_000;

/** pdfinfo prints two lines a page (size and rotation) plus a few dozen of metadata. */
const pdfinfoOutputLimit = (pages: number) => 64_000 + 200 * pages;

export interface PopplerPage extends PageText {
  needsOcr: boolean;
}

/** The reason and words a person can act on, from poppler's stderr. */
function unreadable(stderr: string, code: number | null): TextExtractionError {
  if (/Incorrect password/i.test(stderr)) {
    return new TextExtractionError('encrypted', 'The PDF is password-protected; upload an unprotected copy.');
  }
  const lines = stderr.trim().split('\n').filter(Boolean);
  const detail = lines.at(-1)?.replace(/^(Syntax |Internal |Command Line )?Error( \(\d+\))?: /, '') ?? `exit code ${code}`;
  return new TextExtractionError('malformed', `The PDF cannot be read (${detail}); upload a valid copy.`);
}

/** Page count and the rotation of each page up to `maxPages`, from `pdfinfo -f 1 -l maxPages`. */
async function pageInfo(
  bytes: Uint8Array,
  maxPages: number,
  signal: AbortSignal,
): Promise<{ pageCount: number; rotation: Map<number, number> }> {
  const out: Uint8Array[] = [];
  const { code, stderr } = await runPopplerCommand('pdfinfo', ['-f', '1', '-l', String(maxPages), '-'], {
    input: bytes,
    signal,
    maxOutputBytes: pdfinfoOutputLimit(maxPages),
    onOutput: (chunk) => out.push(chunk),
  });
  if (code !== 0) throw unreadable(stderr, code);
  const info = Buffer.concat(out).toString('utf8');
  const pages = /^Pages:\s+(\d+)$/m.exec(info);
  if (!pages) throw new Error(`pdfinfo did not print the page count; is it poppler's pdfinfo? It printed: ${info.slice(0, 200)}`);
  const rotation = new Map(
    Array.from(info.matchAll(/^Page\s+(\d+) rot:\s+(\d+)$/gm), ([, page, degrees]) => [Number(page), Number(degrees)]),
  );
  return { pageCount: Number(pages[1]), rotation };
}

/** pdftotext prints six decimals; differences of them should not store float noise (88.99199999999999). */
const micro = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * A page as the pipeline stores it. pdftotext measures a page by its unrotated box while it
 * places words on the rotated page, so a page turned a quarter gets its sides swapped here.
 */
function pageText(n: number, raw: BboxPage, rotation: number): PopplerPage {
  const turned = rotation % 180 !== 0;
  const size = { width: turned ? raw.height : raw.width, height: turned ? raw.width : raw.height };
  const runs: TextRun[] = raw.words.map((word) => ({
    text: word.text,
    x: word.xMin,
    y: word.yMin,
    width: micro(word.xMax - word.xMin),
    height: micro(word.yMax - word.yMin),
    baseline: word.yMax,
  }));
  const text = textOfRuns(runs, { wholeWords: true });
  const scanned = needsOcr(text);
  return {
    page: n,
    ...size,
    engine: 'pdf_text',
    text: scanned ? '' : text,
    items: scanned ? [] : runs.map((run) => insidePage(run, size)),
    needsOcr: scanned,
  };
}

function tooManyPages(pageCount: number, maxPages: number): TextExtractionError {
  return new TextExtractionError(
    'too_many_pages',
    `The PDF has ${pageCount} pages; the limit is ${maxPages}. Split it into smaller files and upload those.`,
  );
}

/** Every page's text layer, read by poppler. Pages with too little text are flagged for OCR. */
export async function readPdfTextWithPoppler(
  bytes: Uint8Array,
  options: { maxPages: number; signal: AbortSignal },
): Promise<{ pageCount: number; pages: PopplerPage[] }> {
  const { maxPages, signal } = options;
  if (looksTruncated(bytes)) throw new TextExtractionError('malformed', TRUNCATED_PDF_MESSAGE);
  const stopText = new AbortController();
  // Pages are turned into text as they arrive. Before pdfinfo has given the rotations, a page
  // is taken as unturned (most are) and kept, to be made again if it is turned a quarter.
  const pages: PopplerPage[] = [];
  let rotation: Map<number, number> | undefined;
  const early: BboxPage[] = [];
  const reader = new PdftotextBboxReader((raw) => {
    if (!rotation) early.push(raw);
    pages.push(pageText(pages.length + 1, raw, rotation?.get(pages.length + 1) ?? 0));
  });
  const decoder = new TextDecoder('utf-8');
  // One page past the limit tells a PDF over it without pdfinfo's count.
  const text = runPopplerCommand(
    'pdftotext',
    ['-bbox', '-raw', '-cropbox', '-l', String(maxPages + 1), '-enc', 'UTF-8', '-', '-'],
    {
      input: bytes,
      signal: AbortSignal.any([signal, stopText.signal]),
      maxOutputBytes: MAX_TEXT_OUTPUT_BYTES,
      onOutput: (chunk) => reader.push(decoder.decode(chunk, { stream: true })),
    },
  );
  // Awaited below unless pdfinfo's answer ends the read first.
  text.catch(() => {});
  // Looked at while pdftotext runs. pdfinfo runs beside it only when a page may be turned a
  // quarter (most PDFs turn none); it then also counts the pages, and pdftotext is stopped
  // when they are over the limit.
  const info = mayTurnPagesAQuarter(bytes) ? pageInfo(bytes, maxPages, signal) : undefined;
  let pageCount: number | undefined;
  if (!info) rotation = new Map();
  else {
    try {
      ({ pageCount, rotation } = await info);
    } catch (error) {
      stopText.abort();
      throw error;
    }
    if (pageCount > maxPages) {
      stopText.abort();
      throw tooManyPages(pageCount, maxPages);
    }
    early.forEach((raw, i) => {
      const degrees = rotation?.get(i + 1) ?? 0;
      if (degrees % 180 !== 0) pages[i] = pageText(i + 1, raw, degrees);
    });
    early.length = 0;
  }
  const { code, stderr } = await text;
  if (code !== 0) throw unreadable(stderr, code);
  reader.push(decoder.decode());
  reader.end();
  if (pages.length > maxPages) throw tooManyPages((await pageInfo(bytes, maxPages, signal)).pageCount, maxPages);
  if (pageCount !== undefined && pages.length !== pageCount) {
    throw new Error(`pdftotext printed ${pages.length} pages where pdfinfo counted ${pageCount}`);
  }
  return { pageCount: pages.length, pages };
}
