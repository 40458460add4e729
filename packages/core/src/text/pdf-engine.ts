import { spawnSync } from 'node:child_process';

/** How a PDF's text layer is read: poppler's `pdftotext` command, or pdf.js in a worker thread. */
export type PdfEngineName = 'pdftotext' | 'pdfjs';

let popplerAvailable: boolean | undefined;

/**
 * True when poppler's `pdftotext` and `pdfinfo` are on PATH (checked once per process):
 * the pdftotext engine needs both, pdfinfo for a PDF that may turn a page a quarter and to
 * count the pages of one over the limit.
 */
export function pdftotextAvailable(): boolean {
  popplerAvailable ??= ['pdftotext', 'pdfinfo'].every((command) => spawnSync(command, ['-v'], { stdio: 'ignore' }).status === 0);
  return popplerAvailable;
}

/**
 * The engine to use: the one asked for (argument, then DOCAGENT_PDF_ENGINE), else poppler
 * when installed, else pdf.js. poppler is native code, 5 to 15 times faster than pdf.js on
 * text PDFs (BENCHMARKS.md), and needs no thread of our own: a hostile file costs a child
 * process that the time limit kills. Asking for pdftotext where it is missing is an error,
 * not a quiet fallback, so that an operator who chose it learns it is not in use.
 */
export function choosePdfEngine(asked?: PdfEngineName): PdfEngineName {
  const wanted = asked ?? process.env.DOCAGENT_PDF_ENGINE;
  if (wanted === 'pdfjs') return 'pdfjs';
  if (wanted === 'pdftotext') {
    if (!pdftotextAvailable()) {
      throw new Error(
        'The pdftotext PDF engine was asked for, but the pdftotext and pdfinfo commands are not on PATH; install them (apt-get install poppler-utils) or set DOCAGENT_PDF_ENGINE=pdfjs.',
      );
    }
    return 'pdftotext';
  }
  if (wanted !== undefined && wanted !== '') {
    throw new Error(`DOCAGENT_PDF_ENGINE is "${wanted}"; use pdftotext or pdfjs, or leave it unset.`);
  }
  return pdftotextAvailable() ? 'pdftotext' : 'pdfjs';
}
