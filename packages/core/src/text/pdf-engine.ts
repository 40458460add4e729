import { probeCommand } from './command-probe.ts';

/** How a PDF's text layer is read: poppler's `pdftotext` command, or pdf.js in a worker thread. */
export type PdfEngineName = 'pdftotext' | 'pdfjs';

/**
 * True when poppler's `pdftotext` and `pdfinfo` are on PATH (checked once per process):
 * the pdftotext engine needs both, pdfinfo for a PDF that may turn a page a quarter and to
 * count the pages of one over the limit.
 */
export async function pdftotextAvailable(): Promise<boolean> {
  const probes = await Promise.all(['pdftotext', 'pdfinfo'].map((command) => probeCommand(command, ['-v'])));
  return probes.every((probe) => probe.ok);
}

/**
 * The engine to use: the one asked for (argument, then DOCAGENT_PDF_ENGINE), else poppler
 * when installed, else pdf.js. poppler is native code, 5 to 15 times faster than pdf.js on
 * text PDFs (BENCHMARKS.md), and needs no thread of our own: a hostile file costs a child
 * process that the time limit kills. Asking for pdftotext where it is missing is an error,
 * not a quiet fallback, so that an operator who chose it learns it is not in use.
 */
export async function choosePdfEngine(asked?: PdfEngineName): Promise<PdfEngineName> {
  const wanted = asked ?? process.env.DOCAGENT_PDF_ENGINE;
  if (wanted === 'pdfjs') return 'pdfjs';
  if (wanted === 'pdftotext') {
    if (!(await pdftotextAvailable())) {
      throw new Error(
        'The pdftotext PDF engine was asked for, but the pdftotext and pdfinfo commands are not on PATH; install them (apt-get install poppler-utils) or set DOCAGENT_PDF_ENGINE=pdfjs.',
      );
    }
    return 'pdftotext';
  }
  if (wanted !== undefined && wanted !== '') {
    throw new Error(`DOCAGENT_PDF_ENGINE is "${wanted}"; use pdftotext or pdfjs, or leave it unset.`);
  }
  return (await pdftotextAvailable()) ? 'pdftotext' : 'pdfjs';
}
