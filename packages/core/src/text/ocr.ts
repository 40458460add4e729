import { probeCommand } from './command-probe.ts';
import type { PositionedText } from './types.ts';

export type OcrEngineName = 'tesseract_cli' | 'tesseract_js';

/** What OCR read on one image: its text, in lines, and each word with its box in pixels. */
export interface OcrResult {
  text: string;
  words: PositionedText[];
}

/** An OCR engine ready for the pages of one document; `close` frees it. */
export interface OcrSession {
  readonly engine: OcrEngineName;
  recognize(image: Uint8Array, signal: AbortSignal): Promise<OcrResult>;
  close(): Promise<void>;
}

/**
 * True when Debian's `tesseract` command is on PATH with its English model (checked once
 * per process): without `tesseract-ocr-eng` every page would fail, while tesseract.js has
 * its own model.
 */
export async function tesseractCliAvailable(): Promise<boolean> {
  const probe = await probeCommand('tesseract', ['--list-langs']);
  return probe.ok && /^eng$/m.test(probe.stdout);
}

/**
 * The engine to use: the one asked for (argument, then DOCAGENT_OCR_ENGINE), else the
 * native command when installed, else tesseract.js. The command needs no start-up per
 * document (tesseract.js takes about 0.3 s to load its model) and a page's memory goes
 * with its process.
 */
export async function chooseOcrEngine(asked?: OcrEngineName): Promise<OcrEngineName> {
  const wanted = asked ?? process.env.DOCAGENT_OCR_ENGINE;
  if (wanted === 'tesseract_js') return 'tesseract_js';
  if (wanted === 'tesseract_cli') {
    if (!(await tesseractCliAvailable())) {
      throw new Error(
        'The tesseract command with its English model is not on PATH; install it (apt-get install tesseract-ocr tesseract-ocr-eng) or use tesseract_js.',
      );
    }
    return 'tesseract_cli';
  }
  if (wanted !== undefined && wanted !== '') {
    throw new Error(`DOCAGENT_OCR_ENGINE is "${wanted}"; use tesseract_cli or tesseract_js, or leave it unset.`);
  }
  return (await tesseractCliAvailable()) ? 'tesseract_cli' : 'tesseract_js';
}

export async function openOcrSession(engine: OcrEngineName): Promise<OcrSession> {
  if (engine === 'tesseract_cli') return (await import('./ocr-tesseract-cli.ts')).tesseractCliSession();
  return (await import('./ocr-tesseract-js.ts')).tesseractJsSession();
}

/** Lines of words (in reading order) as page text: words joined by spaces, blocks by a blank line. */
export function joinOcrLines(lines: Array<{ block: string; words: string[] }>): string {
  let text = '';
  let previousBlock: string | undefined;
  for (const line of lines) {
    if (line.words.length === 0) continue;
    if (previousBlock !== undefined) text += line.block === previousBlock ? '\n' : '\n\n';
    text += line.words.join(' ');
    previousBlock = line.block;
  }
  return text;
}
