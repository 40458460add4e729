import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { citeResult, extractDocumentText, type PageText, type PdfEngineName, pdftotextAvailable } from '@docagent/core';
import { buildSampleCorpus } from '@docagent/core/sample-corpus';
import { repeatPages } from './ingest.ts';
import { medianSeconds, table } from './measure.ts';

/**
 * Citations (`citeResult`, what every save of a result runs) next to the text extraction of
 * the same document: the sample contract repeated to 102 and 306 pages, and the 20 invoices
 * with ground truth beside the repository (../shared/data/invoices, or DOCAGENT_INVOICES_DIR).
 */

const RUNS = 5;
const INVOICES =
  process.env.DOCAGENT_INVOICES_DIR ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'invoices');

interface Input {
  name: string;
  bytes: Uint8Array;
  result: Record<string, unknown>;
}

/** A contract's result: its headings and parties (found on the first pages), an amount, and a value found nowhere (the slowest case: every page is searched, fuzzily too). */
function contractResult(headings: string[]): Record<string, unknown> {
  return {
    title: 'Master Services Agreement',
    parties: ['Fabrikam Logistics Inc.', 'Tailspin Data LLC'],
    sections: headings,
    payment_days: 30,
    payment_terms: 'The Client pays each invoice within thirty (30) days of its date.',
    governing_law: 'The laws of the State of Washington',
    signed_on: '2026-11-02',
  };
}

async function measure(
  inputs: Input[],
  pdfEngine: PdfEngineName,
): Promise<{ pages: number; values: number; cited: number; extraction: number; citations: number }> {
  let extraction = 0;
  let citations = 0;
  let pages = 0;
  let values = 0;
  let cited = 0;
  for (const input of inputs) {
    extraction += await medianSeconds(RUNS, () =>
      extractDocumentText({ bytes: input.bytes.slice(), kind: 'pdf' }, { pdfEngine }),
    );
    const text: PageText[] = (await extractDocumentText({ bytes: input.bytes.slice(), kind: 'pdf' }, { pdfEngine })).pages;
    citations += await medianSeconds(RUNS, () => citeResult(text, input.result));
    const found = citeResult(text, input.result);
    pages += text.length;
    values += found.length;
    cited += found.filter((c) => c.match !== 'not_found').length;
  }
  const n = inputs.length;
  return { pages: pages / n, values: values / n, cited: cited / n, extraction: extraction / n, citations: citations / n };
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 1)} ms`;

export async function runGroundingBenchmark(): Promise<{ table: string; results: unknown }> {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-bench-grounding-'));
  try {
    const samples = await buildSampleCorpus(join(dir, 'corpus'));
    const contract = samples.find((s) => s.name === 'contract.pdf')!;
    const sets: Array<{ name: string; inputs: Input[] }> = [];
    for (const pageCount of [102, 306]) {
      const path = join(dir, `contract-${pageCount}.pdf`);
      await repeatPages(contract.path, pageCount / contract.pageCount, path);
      sets.push({
        name: `contract, ${pageCount} pages`,
        inputs: [{ name: path, bytes: new Uint8Array(readFileSync(path)), result: contractResult(contract.pagePhrases) }],
      });
    }
    if (existsSync(join(INVOICES, 'labels'))) {
      const files = readdirSync(join(INVOICES, 'docs')).filter((f) => f.endsWith('.pdf'));
      sets.push({
        name: `${files.length} invoices (per document)`,
        inputs: files.map((file) => {
          const { __meta__: _, ...labels } = JSON.parse(
            readFileSync(join(INVOICES, 'labels', file.replace(/\.pdf$/, '.json')), 'utf8'),
          );
          return { name: file, bytes: new Uint8Array(readFileSync(join(INVOICES, 'docs', file))), result: labels };
        }),
      });
    } else {
      process.stderr.write(`grounding: no invoices at ${INVOICES} (DOCAGENT_INVOICES_DIR); measuring the contract only.\n`);
    }

    const rows: Array<Array<string | number>> = [];
    const results: Array<Record<string, unknown>> = [];
    const engines: PdfEngineName[] = (await pdftotextAvailable()) ? ['pdftotext', 'pdfjs'] : ['pdfjs'];
    for (const set of sets) {
      for (const pdfEngine of engines) {
        const m = await measure(set.inputs, pdfEngine);
        rows.push([
          `${set.name} (${pdfEngine})`,
          m.pages,
          `${m.cited.toFixed(1)} of ${m.values.toFixed(1)}`,
          ms(m.extraction),
          ms(m.citations),
          `${((100 * m.citations) / m.extraction).toFixed(1)} %`,
        ]);
        results.push({
          input: set.name,
          engine: pdfEngine,
          documents: set.inputs.length,
          pages_per_document: m.pages,
          values_per_document: m.values,
          cited_per_document: m.cited,
          text_extraction_ms_per_document: m.extraction * 1000,
          citations_ms_per_document: m.citations * 1000,
        });
      }
    }
    const header = [
      'input',
      'pages',
      'values cited',
      'text extraction / document',
      'citations / document',
      'citations vs extraction',
    ];
    return { table: table(header, rows), results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
