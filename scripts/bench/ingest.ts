import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandHost, extractDocumentText, type OcrEngineName, type PdfEngineName } from '@docagent/core';
import { buildSampleCorpus } from '@docagent/core/sample-corpus';
import { PDFDocument } from 'pdf-lib';
import { medianSeconds, pairedMedianSeconds, table } from './measure.ts';

/**
 * Text extraction against the tools people would otherwise use, on the same files in the
 * same run: text PDFs (with each PDF engine) against poppler's `pdftotext`, OCR against the
 * `tesseract` command.
 */

const RUNS = 5;
/** Text PDFs take tens of milliseconds: many paired runs cost little and steady the medians. */
const TEXT_RUNS = 21;
const OCR_RUNS = 3;
/** Both engines in one run, so that their ratios share the machine's state. */
const PDF_ENGINES: PdfEngineName[] = ['pdftotext', 'pdfjs'];

function requireCommand(name: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${name}`]).status !== 0) {
    throw new Error(`The ingest benchmark compares with \`${name}\`: apt-get install -y ${pkg}`);
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
}

/**
 * `pdftotext -layout` as the baseline: started from docagent's command host, the small process
 * its own poppler commands start from. Started from this process instead (spawnSync), every run
 * would pay a fork of the benchmark's few hundred MB (about 5 ms), which docagent no longer pays.
 */
async function pdftotextLayout(path: string, out: string): Promise<void> {
  const { code, stderr } = await commandHost.run('pdftotext', ['-layout', path, out], {
    input: new Uint8Array(),
    signal: AbortSignal.timeout(60_000),
    onOutput: () => {},
  });
  if (code !== 0) throw new Error(`pdftotext -layout ${path} failed: ${stderr}`);
}

/** Words as a multiset: how many times each occurs. */
function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.split(/\s+/)) if (word !== '') counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The share of pdftotext's words (with repeats) that our text holds too: text recall against poppler. */
function recallOf(ours: string, poppler: string): number {
  const have = wordCounts(ours);
  let total = 0;
  let found = 0;
  for (const [word, count] of wordCounts(poppler)) {
    total += count;
    found += Math.min(count, have.get(word) ?? 0);
  }
  return total === 0 ? 1 : found / total;
}

/** A long text PDF: the contract's pages repeated, so per-document overheads wash out. */
export async function repeatPages(path: string, times: number, out: string): Promise<void> {
  const source = await PDFDocument.load(readFileSync(path));
  const long = await PDFDocument.create();
  for (let i = 0; i < times; i++) for (const page of await long.copyPages(source, source.getPageIndices())) long.addPage(page);
  writeFileSync(out, await long.save());
}

export async function runIngestBenchmark(): Promise<{ table: string; results: unknown }> {
  requireCommand('pdftotext', 'poppler-utils');
  requireCommand('tesseract', 'tesseract-ocr tesseract-ocr-eng');
  const dir = mkdtempSync(join(tmpdir(), 'docagent-bench-ingest-'));
  try {
    const samples = await buildSampleCorpus(join(dir, 'corpus'));
    const textPdfs = samples.filter((s) => s.kind === 'pdf' && s.expectedEngine === 'pdf_text');
    const contract = textPdfs.reduce((a, b) => (b.pageCount > a.pageCount ? b : a));
    const longPath = join(dir, 'long-contract.pdf');
    await repeatPages(contract.path, Math.ceil(100 / contract.pageCount), longPath);
    const longPages = Math.ceil(100 / contract.pageCount) * contract.pageCount;
    const pdfInputs = [
      ...textPdfs.map((s) => ({ name: s.name, path: s.path, pages: s.pageCount })),
      { name: 'long-contract.pdf', path: longPath, pages: longPages },
    ];

    const rows: Array<Array<string | number>> = [];
    const results: Array<Record<string, unknown>> = [];
    // One engine's rows after the other's, as a server runs one: pdf.js leaves a spare thread
    // loading for the next document, which would compete with poppler's rows for the two cores.
    for (const pdfEngine of PDF_ENGINES) {
      for (const input of pdfInputs) {
        const bytes = new Uint8Array(readFileSync(input.path));
        const times = await pairedMedianSeconds(
          TEXT_RUNS,
          () => extractDocumentText({ bytes: bytes.slice(), kind: 'pdf' }, { pdfEngine }),
          () => pdftotextLayout(input.path, join(dir, 'out.txt')),
        );
        const popplerText = readFileSync(join(dir, 'out.txt'), 'utf8');
        const popplerRate = input.pages / times.baseline;
        const oursRate = input.pages / times.ours;
        const ourText = (await extractDocumentText({ bytes: bytes.slice(), kind: 'pdf' }, { pdfEngine })).pages
          .map((p) => p.text)
          .join('\n');
        const recall = recallOf(ourText, popplerText);
        rows.push([
          `${input.name} (${pdfEngine})`,
          input.pages,
          `${oursRate.toFixed(1)} pages/s`,
          `${popplerRate.toFixed(1)} pages/s (pdftotext)`,
          (oursRate / popplerRate).toFixed(2),
          `${(recall * 100).toFixed(1)} %`,
        ]);
        results.push({
          input: input.name,
          engine: pdfEngine,
          pages: input.pages,
          docagent_pages_per_s: oursRate,
          pdftotext_pages_per_s: popplerRate,
          word_recall_vs_pdftotext: recall,
        });
      }
    }

    // Back to back, the thread started for the next document competes with the current one
    // for the two cores; after an idle second it is ready, as between a server's uploads.
    const invoice = textPdfs.find((s) => s.name === 'invoice.pdf') ?? textPdfs[0]!;
    const invoiceBytes = new Uint8Array(readFileSync(invoice.path));
    const idlePoppler = await medianSeconds(RUNS, () => pdftotextLayout(invoice.path, join(dir, 'out.txt')), 1000);
    for (const pdfEngine of PDF_ENGINES) {
      const idle = await medianSeconds(
        RUNS,
        () => extractDocumentText({ bytes: invoiceBytes, kind: 'pdf' }, { pdfEngine }),
        1000,
      );
      rows.push([
        `${invoice.name} (${pdfEngine}), after 1 s idle (latency)`,
        invoice.pageCount,
        `${(idle * 1000).toFixed(0)} ms`,
        `${(idlePoppler * 1000).toFixed(0)} ms (pdftotext)`,
        (idlePoppler / idle).toFixed(2),
        '',
      ]);
      results.push({
        input: invoice.name,
        engine: pdfEngine,
        idle_before_ms: 1000,
        docagent_ms: idle * 1000,
        pdftotext_ms: idlePoppler * 1000,
      });
    }

    const ocrInputs = samples.filter((s) => s.expectedEngine !== 'pdf_text' && (s.kind === 'pdf' || s.kind === 'image'));
    for (const sample of ocrInputs) {
      const bytes = new Uint8Array(readFileSync(sample.path));
      const baseline = await medianSeconds(OCR_RUNS, () => {
        if (sample.kind === 'image') return run('tesseract', [sample.path, join(dir, 'ocr'), 'tsv']);
        // What a person would script: poppler renders at 300 DPI, tesseract reads each page.
        run('pdftoppm', ['-r', '300', '-png', sample.path, join(dir, 'page')]);
        for (let page = 1; page <= sample.pageCount; page++) {
          const png = join(dir, `page-${String(page).padStart(String(sample.pageCount).length, '0')}.png`);
          run('tesseract', [png, join(dir, 'ocr'), 'tsv']);
        }
      });
      const baselinePerPage = baseline / sample.pageCount;
      for (const engine of ['tesseract_cli', 'tesseract_js'] as OcrEngineName[]) {
        const ours = await medianSeconds(OCR_RUNS, () =>
          extractDocumentText({ bytes: bytes.slice(), kind: sample.kind as 'pdf' | 'image' }, { ocrEngine: engine }),
        );
        const perPage = ours / sample.pageCount;
        rows.push([
          `${sample.name} (OCR, ${engine})`,
          sample.pageCount,
          `${perPage.toFixed(2)} s/page`,
          `${baselinePerPage.toFixed(2)} s/page (tesseract CLI)`,
          (baselinePerPage / perPage).toFixed(2),
          '',
        ]);
        results.push({
          input: sample.name,
          engine,
          pages: sample.pageCount,
          docagent_s_per_page: perPage,
          tesseract_cli_s_per_page: baselinePerPage,
        });
      }
    }
    const header = ['input', 'pages', 'docagent', 'baseline', 'speed vs baseline (>1 is faster)', "pdftotext's words found"];
    return { table: table(header, rows), results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
