import { spawn } from 'node:child_process';
import { joinOcrLines, type OcrResult, type OcrSession } from './ocr.ts';
import { TextExtractionError } from './types.ts';

const STDERR_TAIL = 500;

/** Runs `tesseract stdin stdout tsv` on the image bytes and returns the TSV it prints. */
function runTesseract(image: Uint8Array, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', ['stdin', 'stdout', '-l', 'eng', 'tsv'], { signal, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-STDERR_TAIL);
    });
    child.on('error', (error) => reject(signal.aborted ? signal.reason : error));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new TextExtractionError('ocr_failed', `OCR (tesseract) could not read the image: ${err.trim() || `exit code ${code}`}`),
        );
    });
    // An image tesseract cannot decode closes stdin early; the exit code tells the story.
    child.stdin.on('error', () => {});
    child.stdin.end(image);
  });
}

/** Words and lines from tesseract's TSV (level 5 rows are words). */
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

export function tesseractCliSession(): OcrSession {
  return {
    engine: 'tesseract_cli',
    recognize: async (image, signal) => parseTesseractTsv(await runTesseract(image, signal)),
    close: async () => {},
  };
}
