import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  extractDocumentText,
  type OcrEngineName,
  type TextExtraction,
  TextExtractionError,
  tesseractCliAvailable,
} from '../src/index.ts';
import { type BadInput, buildBadInputs, buildSampleCorpus, type Sample } from '../src/testing/sample-corpus.ts';
import { parseTesseractTsv } from '../src/text/ocr-tesseract-cli.ts';

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

function assertExtraction(sample: Sample, result: TextExtraction, engines: string[]): void {
  assert.equal(result.pageCount, sample.pageCount, `${sample.name} page count`);
  assert.equal(result.pages.length, sample.pageCount);
  const text = normalize(result.pages.map((p) => p.text).join('\n'));
  for (const phrase of sample.expected)
    assert.ok(text.includes(normalize(phrase)), `${sample.name} yields "${phrase}"; got:\n${text}`);
  for (const page of result.pages) {
    assert.ok(engines.includes(page.engine), `${sample.name} page ${page.page} engine ${page.engine}`);
    assert.ok(page.items.length > 0, `${sample.name} page ${page.page} has positioned text`);
    for (const item of page.items) {
      assert.ok(item.x >= 0 && item.y >= 0, `${sample.name}: "${item.text}" starts inside the page`);
      assert.ok(
        item.x + item.width <= page.width + 0.5 && item.y + item.height <= page.height + 0.5,
        `${sample.name}: "${item.text}" ends inside the page`,
      );
    }
  }
}

describe('the sample corpus', () => {
  test('text PDFs, CSV and Markdown yield their text from the text layer or as they are', async () => {
    for (const sample of samples.filter((s) => s.expectedEngine !== 'ocr')) {
      const result = await extractDocumentText({ bytes: bytesOf(sample.path), kind: sample.kind });
      assertExtraction(sample, result, [sample.expectedEngine]);
    }
  });

  test('text-layer lines keep their line breaks and reading order', async () => {
    const invoice = samples.find((s) => s.name === 'invoice.pdf')!;
    const { pages } = await extractDocumentText({ bytes: bytesOf(invoice.path), kind: 'pdf' });
    const lines = pages[0]!.text.split('\n');
    assert.equal(lines[0], 'Northwind Traders Ltd.');
    assert.ok(lines.indexOf('INVOICE') < lines.findIndex((l) => l.startsWith('Total due')));
  });

  for (const engine of ['tesseract_cli', 'tesseract_js'] as OcrEngineName[]) {
    test(`the scanned PDF and the PNG are read by OCR with ${engine}`, async () => {
      if (engine === 'tesseract_cli') {
        assert.ok(
          tesseractCliAvailable(),
          'the tesseract command is on PATH (apt-get install -y tesseract-ocr; .ci/run does it)',
        );
      }
      for (const sample of samples.filter((s) => s.expectedEngine === 'ocr')) {
        const result = await extractDocumentText({ bytes: bytesOf(sample.path), kind: sample.kind }, { ocrEngine: engine });
        assertExtraction(sample, result, [engine]);
        const words = result.pages[0]!.items;
        assert.ok(
          words.every((w) => typeof w.confidence === 'number'),
          'OCR words carry a confidence',
        );
      }
    });
  }

  test('a PDF with a text page and a scanned page mixes engines, page by page', async () => {
    const scanned = await PDFDocument.load(readFileSync(samples.find((s) => s.name === 'scanned-delivery-note.pdf')!.path));
    const mixed = await PDFDocument.create();
    const font = await mixed.embedFont(StandardFonts.Helvetica);
    mixed.addPage([595, 842]).drawText('A page with a real text layer on it.', { x: 50, y: 780, size: 14, font });
    const [scanPage] = await mixed.copyPages(scanned, [0]);
    mixed.addPage(scanPage!);
    const result = await extractDocumentText({ bytes: await mixed.save(), kind: 'pdf' }, { ocrEngine: 'tesseract_cli' });
    assert.deepEqual(
      result.pages.map((p) => p.engine),
      ['pdf_text', 'tesseract_cli'],
    );
    assert.match(result.pages[1]!.text, /DELIVERY NOTE/);
  });
});

describe('bad input', () => {
  test('each bad file fails with its reason and a message a person can act on', async () => {
    for (const bad of badInputs.filter((b) => b.expected.stage === 'extraction')) {
      const expected = bad.expected as Extract<BadInput['expected'], { stage: 'extraction' }>;
      const kind = bad.name.endsWith('.png') ? 'image' : 'pdf';
      await assert.rejects(extractDocumentText({ bytes: bytesOf(bad.path), kind }), (error: unknown) => {
        assert.ok(error instanceof TextExtractionError, `${bad.name}: ${error}`);
        assert.equal(error.reason, expected.reason, `${bad.name}: ${error.message}`);
        assert.match(error.message, expected.message);
        return true;
      });
    }
  });

  test('the time limit ends the work and says what to do', async () => {
    const scanned = samples.find((s) => s.name === 'scanned-delivery-note.pdf')!;
    await assert.rejects(
      extractDocumentText({ bytes: bytesOf(scanned.path), kind: 'pdf' }, { limits: { timeoutMs: 50 } }),
      (error: unknown) =>
        error instanceof TextExtractionError && error.reason === 'timeout' && /TEXT_TIMEOUT_SECONDS/.test(error.message),
    );
  });

  test('text that is not UTF-8 is refused as malformed', async () => {
    await assert.rejects(
      extractDocumentText({ bytes: new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0x00]), kind: 'text' }),
      (error: unknown) => error instanceof TextExtractionError && error.reason === 'malformed',
    );
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
