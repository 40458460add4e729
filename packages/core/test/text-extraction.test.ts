import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  extractDocumentText,
  type OcrEngineName,
  pdftotextAvailable,
  sniffDocumentType,
  type TextExtraction,
  TextExtractionError,
  tesseractCliAvailable,
} from '../src/index.ts';
import { type BadInput, buildBadInputs, buildSampleCorpus, type Sample } from '../src/testing/sample-corpus.ts';
import { parseTesseractTsv } from '../src/text/ocr-tesseract-cli.ts';
import type { PdfPageViewport, PdfTextItem } from '../src/text/pdf-document.ts';
import { readTextLayer } from '../src/text/pdf-text-layer.ts';
import { envUntilTestEnds, fakeCommandOnPath } from './fake-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'docagent-text-'));
let samples: Sample[];
let badInputs: BadInput[];

before(async () => {
  samples = await buildSampleCorpus(join(dir, 'samples'));
  badInputs = await buildBadInputs(join(dir, 'bad'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
const sample = (name: string) => samples.find((s) => s.name === name)!;
const popplerInstalled = await pdftotextAvailable();
const ocrSamples = () => samples.filter((s) => s.expectedEngine === 'ocr');

function assertExtraction(s: Sample, result: TextExtraction, engines: string[]): void {
  assert.equal(result.pageCount, s.pageCount, `${s.name} page count`);
  assert.deepEqual(
    result.pages.map((p) => p.page),
    Array.from({ length: s.pageCount }, (_, i) => i + 1),
  );
  const text = normalize(result.pages.map((p) => p.text).join('\n'));
  for (const phrase of s.expected) assert.ok(text.includes(normalize(phrase)), `${s.name} yields "${phrase}"; got:\n${text}`);
  for (const [i, phrase] of s.pagePhrases.entries()) {
    const onPages = result.pages.filter((p) => normalize(p.text).includes(normalize(phrase))).map((p) => p.page);
    assert.deepEqual(onPages, [i + 1], `${s.name}: "${phrase}" is on page ${i + 1} only`);
  }
  for (const page of result.pages) {
    assert.ok(engines.includes(page.engine), `${s.name} page ${page.page} engine ${page.engine}`);
    assert.ok(page.width > 0 && page.height > 0, `${s.name} page ${page.page} has a size`);
    assert.ok(page.items.length > 0, `${s.name} page ${page.page} has positioned text`);
    for (const item of page.items) {
      const where = `${s.name} p${page.page}: "${item.text}" at ${item.x},${item.y} ${item.width}×${item.height}`;
      assert.ok(item.text.trim() !== '' && item.width > 0 && item.height > 0, `${where} is a visible box`);
      assert.ok(item.x >= 0 && item.y >= 0, `${where} starts inside the page`);
      assert.ok(
        item.x + item.width <= page.width + 1e-6 && item.y + item.height <= page.height + 1e-6,
        `${where} ends inside the page`,
      );
    }
  }
}

describe('the sample corpus', () => {
  test('text PDFs yield their text layer, CSV and Markdown their text as it is', async () => {
    for (const s of samples.filter((s) => s.expectedEngine !== 'ocr')) {
      const result = await extractDocumentText({ bytes: bytesOf(s.path), kind: s.kind }, {});
      assertExtraction(s, result, [s.expectedEngine]);
    }
  });

  test('text-layer lines come back in reading order, table rows on one line, boxes where the text is drawn', async () => {
    const { pages } = await extractDocumentText({ bytes: bytesOf(sample('invoice.pdf').path), kind: 'pdf' }, {});
    const page = pages[0]!;
    const lines = page.text.split('\n');
    assert.equal(lines[0], 'Northwind Traders Ltd.');
    for (const row of [
      'Description Qty Unit price Amount',
      'Schema design workshop 1 600.00 600.00',
      'Total due: 1,234.56 EUR',
    ]) {
      assert.ok(lines.includes(row), `a line reads "${row}"; the lines are:\n${page.text}`);
    }
    assert.ok(lines.indexOf('INVOICE') < lines.indexOf('Total due: 1,234.56 EUR'));
    // The title is drawn at 50 pt from the left and top edges, 18 pt high, its baseline 77 pt
    // down; y grows downwards. A box ends at the baseline (pdf.js) or at the font's descent
    // below it (pdftotext); items are runs (pdf.js) or words (pdftotext).
    const title = page.items.find((item) => item.text.startsWith('Northwind'))!;
    const titleBottom = title.y + title.height;
    assert.ok(Math.abs(title.x - 50) < 0.01 && titleBottom >= 77 - 0.01 && titleBottom < 77 + 0.25 * 18, JSON.stringify(title));
    const total = page.items.find((item) => item.text.endsWith('EUR'))!;
    assert.ok(total.y > title.y && Math.abs(total.x + total.width - 545) < 0.01, JSON.stringify(total));
  });

  test('CSV and Markdown: one page, the BOM dropped, line endings unified, one item per non-empty line', async () => {
    const csv = (await extractDocumentText({ bytes: bytesOf(sample('shipments.csv').path), kind: 'csv' }, {})).pages[0]!;
    assert.equal(csv.text, 'shipment_id,origin,destination,weight_kg\nS-1001,Rotterdam,Hamburg,1250\nS-1002,Antwerp,Lyon,830\n');
    assert.deepEqual(
      [csv.width, csv.height, csv.items.map((i) => [i.y, i.width])],
      [
        40,
        3,
        [
          [0, 40],
          [1, 29],
          [2, 23],
        ],
      ],
    );
    const md = (await extractDocumentText({ bytes: bytesOf(sample('meeting-notes.md').path), kind: 'markdown' }, {})).pages[0]!;
    assert.equal(md.engine, 'plain');
    assert.deepEqual(
      md.items.map((i) => i.y),
      [0, 2, 3, 5, 6, 7],
      'blank lines have no item but keep their place',
    );
  });

  for (const engine of ['tesseract_cli', 'tesseract_js'] as OcrEngineName[]) {
    test(`the scanned PDF and the PNG are read by OCR with ${engine}`, async () => {
      if (engine === 'tesseract_cli') {
        assert.ok(
          await tesseractCliAvailable(),
          'the tesseract command is not on PATH: apt-get install -y tesseract-ocr tesseract-ocr-eng (.ci/run does it)',
        );
      }
      for (const s of ocrSamples()) {
        const result = await extractDocumentText({ bytes: bytesOf(s.path), kind: s.kind }, { ocrEngine: engine });
        assertExtraction(s, result, [engine]);
        for (const page of result.pages) {
          assert.ok(
            page.items.every((w) => typeof w.confidence === 'number' && w.confidence >= 0 && w.confidence <= 100),
            'OCR words carry a confidence',
          );
        }
      }
      const png = (
        await extractDocumentText({ bytes: bytesOf(sample('packing-slip.png').path), kind: 'image' }, { ocrEngine: engine })
      ).pages[0]!;
      assert.deepEqual([png.width, png.height], [1240, 1755], 'an image page is measured in pixels (A4 at 150 DPI)');
    });
  }

  for (const pdfEngine of ['pdfjs', 'pdftotext'] as const) {
    test(`a PDF with a text page, an image-only page and a blank page mixes engines, page by page (${pdfEngine})`, {
      skip: pdfEngine === 'pdftotext' && !popplerInstalled ? 'pdftotext is not on PATH' : false,
    }, async () => {
      const scanned = await PDFDocument.load(readFileSync(sample('scanned-delivery-note.pdf').path));
      const mixed = await PDFDocument.create();
      const font = await mixed.embedFont(StandardFonts.Helvetica);
      mixed.addPage([595, 842]).drawText('A page with a real text layer on it.', { x: 50, y: 780, size: 14, font });
      const [scanPage] = await mixed.copyPages(scanned, [0]);
      mixed.addPage(scanPage!);
      mixed.addPage([595, 842]);
      const reports: Array<[number, number]> = [];
      const result = await extractDocumentText(
        { bytes: await mixed.save(), kind: 'pdf' },
        { pdfEngine, onPage: (done, total) => reports.push([done, total]) },
      );
      const ocr = (await tesseractCliAvailable()) ? 'tesseract_cli' : 'tesseract_js';
      assert.deepEqual(
        result.pages.map((p) => p.engine),
        ['pdf_text', ocr, ocr],
      );
      assert.equal(result.pages[0]!.text, 'A page with a real text layer on it.');
      assert.match(result.pages[1]!.text, /DELIVERY NOTE/);
      assert.deepEqual([result.pages[2]!.text, result.pages[2]!.items], ['', []]);
      // None as the page count is known, the text page, then each page as its OCR ends.
      assert.deepEqual(reports, [
        [0, 3],
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
    });
  }
});

describe('bad input', () => {
  const extractionFailures = () =>
    badInputs.filter((b): b is BadInput & { expected: { stage: 'extraction' } } => b.expected.stage === 'extraction');

  test('each bad file passes upload sniffing and then fails with its reason and a message a person can act on', async () => {
    for (const bad of extractionFailures()) {
      const bytes = bytesOf(bad.path);
      const { kind } = await sniffDocumentType(bad.name, bytes.subarray(0, 64 * 1024));
      await assert.rejects(extractDocumentText({ bytes, kind }, {}), (error: unknown) => {
        assert.ok(error instanceof TextExtractionError, `${bad.name}: ${error}`);
        assert.equal(error.reason, bad.expected.reason, `${bad.name}: ${error.message}`);
        assert.match(error.message, bad.expected.message);
        assert.match(error.message, /\b(upload|split|scale)\b/i, `${bad.name}: the message says what to do: ${error.message}`);
        return true;
      });
    }
  });

  test('an image whose header reads but whose pixels do not is malformed with either engine, and the process lives on', async () => {
    const cutOff = badInputs.find((b) => b.name === 'cut-off.png')!;
    for (const engine of ['tesseract_cli', 'tesseract_js'] as OcrEngineName[]) {
      if (engine === 'tesseract_cli' && !(await tesseractCliAvailable())) continue;
      await assert.rejects(
        extractDocumentText({ bytes: bytesOf(cutOff.path), kind: 'image' }, { ocrEngine: engine }),
        (error: unknown) =>
          error instanceof TextExtractionError && error.reason === 'malformed' && /cannot be decoded/.test(error.message),
        engine,
      );
    }
  });

  test('limits given by the caller apply over the defaults', async () => {
    const contract = sample('contract.pdf');
    await assert.rejects(
      extractDocumentText({ bytes: bytesOf(contract.path), kind: 'pdf' }, { limits: { maxPages: 2 } }),
      (error: unknown) =>
        error instanceof TextExtractionError &&
        error.reason === 'too_many_pages' &&
        /has 3 pages; the limit is 2\./.test(error.message),
    );
    await assert.rejects(
      extractDocumentText(
        { bytes: bytesOf(sample('packing-slip.png').path), kind: 'image' },
        { limits: { maxImagePixels: 1_000_000 } },
      ),
      (error: unknown) =>
        error instanceof TextExtractionError &&
        error.reason === 'too_large' &&
        /1240×1755 pixels \(2\.2 megapixels\); the limit is 1 megapixels/.test(error.message),
    );
  });

  test('the time limit ends the PDF worker thread and says how long it was and what to do', async () => {
    const started: Worker[] = [];
    const onWorker = (message: unknown) => started.push((message as { worker: Worker }).worker);
    diagnostics.subscribe('worker_threads', onWorker);
    try {
      // Twice, so that the second document runs on the spare thread the first one started.
      for (let i = 0; i < 2; i++) {
        await assert.rejects(
          extractDocumentText(
            { bytes: bytesOf(sample('contract.pdf').path), kind: 'pdf' },
            // The thread is pdf.js's; pdf-text-poppler.test.ts has the pdftotext engine's time limit.
            { pdfEngine: 'pdfjs', limits: { timeoutMs: 1 } },
          ),
          (error: unknown) =>
            error instanceof TextExtractionError &&
            error.reason === 'timeout' &&
            /within the limit of 1 ms .*split it into smaller files, or ask the administrator to raise TEXT_TIMEOUT_SECONDS/.test(
              error.message,
            ),
        );
      }
    } finally {
      diagnostics.unsubscribe('worker_threads', onWorker);
    }
    const spareForNext = started.at(-1)!;
    assert.ok(started.length >= 2, 'each document starts the thread of the next one');
    assert.notEqual(spareForNext.threadId, -1, 'the spare thread waits for the next document');
    for (const thread of started.slice(0, -1))
      assert.equal(thread.threadId, -1, 'the threads that read documents have been terminated');
  });

  test('a failing tesseract command is ocr_failed with the end of what it wrote to stderr', async (t) => {
    assert.ok(
      await tesseractCliAvailable(),
      'the tesseract command is on PATH (apt-get install -y tesseract-ocr tesseract-ocr-eng)',
    );
    fakeCommandOnPath(
      t,
      'tesseract',
      "#!/bin/sh\necho 'Error opening data file /usr/share/tesseract-ocr/5/tessdata/eng.traineddata' >&2\nexit 1\n",
    );
    await assert.rejects(
      extractDocumentText({ bytes: bytesOf(sample('packing-slip.png').path), kind: 'image' }, { ocrEngine: 'tesseract_cli' }),
      (error: unknown) =>
        error instanceof TextExtractionError &&
        error.reason === 'ocr_failed' &&
        /tesseract command\) failed: Error opening data file .*eng\.traineddata/.test(error.message),
    );
  });

  test("tesseract runs with one OpenMP thread and none of the server's secrets in its environment", async (t) => {
    envUntilTestEnds(t, 'OPENAI_API_KEY', 'sk-secret');
    fakeCommandOnPath(t, 'tesseract', '#!/bin/sh\necho "threads=$OMP_THREAD_LIMIT key=$OPENAI_API_KEY" >&2\nexit 1\n');
    await assert.rejects(
      extractDocumentText({ bytes: bytesOf(sample('packing-slip.png').path), kind: 'image' }, { ocrEngine: 'tesseract_cli' }),
      (error: unknown) => error instanceof TextExtractionError && /failed: threads=1 key=\./.test(error.message),
    );
  });

  test('text that is not UTF-8 is refused as malformed', async () => {
    await assert.rejects(
      extractDocumentText({ bytes: new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0x00]), kind: 'text' }, {}),
      (error: unknown) =>
        error instanceof TextExtractionError && error.reason === 'malformed' && /save it as UTF-8/.test(error.message),
    );
  });
});

describe('reading a text layer', () => {
  // A page 600 pt high at scale 1: pdf.js's viewport flips y so that it grows downwards.
  const viewport: PdfPageViewport = { width: 400, height: 600, convertToViewportPoint: (x, y) => [x, 600 - y] };
  const run = (str: string, x: number, baseline: number, size = 10, width = str.length * size * 0.5): PdfTextItem => ({
    str,
    transform: [size, 0, 0, size, x, baseline],
    width,
    height: size,
  });

  test('runs on one baseline form a line read left to right; a superscript stays on its line; gaps become spaces', () => {
    const { text, items } = readTextLayer(
      [
        run('Amount', 300, 500),
        run('Description', 50, 500),
        run('Two', 50, 480, 10, 18),
        run('words', 70, 480, 10, 25),
        run('2', 95.5, 484, 6, 3),
        run('un', 50, 460, 10, 10),
        run('broken', 60.5, 460, 10, 30),
        run(' ', 100, 440),
      ],
      viewport,
    );
    assert.equal(text, 'Description Amount\nTwo words2\nunbroken');
    assert.equal(items.length, 7, 'whitespace runs are not items');
    assert.deepEqual(items[1], { text: 'Description', x: 50, y: 90, width: 55, height: 10 });
  });

  test('boxes that stick out of the page are clipped to it', () => {
    const { items } = readTextLayer([run('edge', 390, 5, 10, 20)], viewport);
    assert.deepEqual(items[0], { text: 'edge', x: 390, y: 585, width: 10, height: 10 });
  });
});

test("tesseract's TSV becomes words with boxes and lines grouped by block", () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '1\t1\t0\t0\t0\t0\t0\t0\t600\t800\t-1\t',
    '5\t1\t1\t1\t1\t1\t10\t20\t50\t12\t96.5\tHello',
    '5\t1\t1\t1\t1\t2\t70\t20\t60\t12\t91\tworld',
    '5\t1\t1\t1\t2\t1\t10\t40\t40\t12\t88\tagain',
    '5\t1\t2\t1\t1\t1\t10\t90\t40\t12\t-1\tnext',
  ].join('\n');
  const result = parseTesseractTsv(tsv);
  assert.equal(result.text, 'Hello world\nagain\n\nnext');
  assert.deepEqual(result.words[0], { text: 'Hello', x: 10, y: 20, width: 50, height: 12, confidence: 96.5 });
  assert.equal(result.words[3]?.confidence, 0);
});
