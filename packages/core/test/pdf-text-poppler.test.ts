import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { extractDocumentText, type PageText, type PdfEngineName, pdftotextAvailable, TextExtractionError } from '../src/index.ts';
import { buildSampleCorpus, type Sample } from '../src/testing/sample-corpus.ts';
import { choosePdfEngine } from '../src/text/pdf-engine.ts';
import { type BboxPage, PdftotextBboxReader } from '../src/text/pdftotext-bbox.ts';
import { fakeCommandOnPath } from './fake-command.ts';

const NO_POPPLER = 'pdftotext is not on PATH: apt-get install -y poppler-utils (.ci/run does it)';
const skip = (await pdftotextAvailable()) ? false : NO_POPPLER;

const dir = mkdtempSync(join(tmpdir(), 'docagent-poppler-'));
let samples: Sample[];
before(async () => {
  samples = await buildSampleCorpus(join(dir, 'samples'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const textPdfs = () => samples.filter((s) => s.kind === 'pdf' && s.expectedEngine === 'pdf_text');
const extract = (path: string, pdfEngine: PdfEngineName) =>
  extractDocumentText({ bytes: new Uint8Array(readFileSync(path)), kind: 'pdf' }, { pdfEngine });

/** Both list the same words in the content stream's order; pdf.js's runs hold one or more of them. */
function assertSameWordsAndBoxes(name: string, popplerPage: PageText, pdfjsPage: PageText): void {
  const words = [...popplerPage.items];
  for (const run of pdfjsPage.items) {
    const runWords = run.text.trim().split(/\s+/);
    const mine = words.splice(0, runWords.length);
    const where = `${name} p${pdfjsPage.page} "${run.text}"`;
    assert.deepEqual(
      mine.map((w) => w.text),
      runWords,
      `${where}: the same words`,
    );
    const first = mine[0]!;
    const last = mine.at(-1)!;
    // x edges come from the same glyph widths; y edges differ by the box convention (see
    // PositionedText): ascent to descent against the font size above the baseline.
    assert.ok(Math.abs(first.x - run.x) < 0.5, `${where}: left edge ${first.x} against ${run.x}`);
    assert.ok(Math.abs(last.x + last.width - (run.x + run.width)) < 0.5, `${where}: right edge`);
    for (const word of mine) {
      assert.ok(Math.abs(word.y - run.y) < 0.35 * run.height, `${where}: "${word.text}" top ${word.y} against ${run.y}`);
      const [bottom, runBottom] = [word.y + word.height, run.y + run.height];
      assert.ok(
        Math.abs(bottom - runBottom) < 0.35 * run.height,
        `${where}: "${word.text}" bottom ${bottom} against ${runBottom}`,
      );
    }
  }
  assert.deepEqual(words, [], `${name} p${pdfjsPage.page}: no words beyond pdf.js's`);
}

describe('the pdftotext engine', () => {
  test('gives the text, words and boxes of pdf.js on every text PDF of the sample corpus', { skip }, async () => {
    for (const s of textPdfs()) {
      const [poppler, pdfjs] = [await extract(s.path, 'pdftotext'), await extract(s.path, 'pdfjs')];
      assert.equal(poppler.pageCount, pdfjs.pageCount, s.name);
      for (const [i, page] of poppler.pages.entries()) {
        const other = pdfjs.pages[i]!;
        assert.deepEqual(
          [page.page, page.width, page.height, page.engine],
          [other.page, other.width, other.height, other.engine],
        );
        assert.equal(page.text, other.text, `${s.name} p${page.page}: the same lines`);
        assertSameWordsAndBoxes(s.name, page, other);
      }
    }
  });

  test('reads crop boxes and rotated pages as pdf.js does', { skip }, async () => {
    const { PDFDocument, StandardFonts, degrees } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const cropped = pdf.addPage([600, 400]);
    cropped.drawText('A page shown through a smaller crop box', { x: 50, y: 300, size: 14, font });
    cropped.setCropBox(20, 20, 500, 350);
    const turned = pdf.addPage([600, 400]);
    // A landscape page as scanners and printers make it: turned on display, its text drawn
    // turned the other way so that it reads upright.
    turned.drawText('A page turned a quarter to the right', { x: 300, y: 50, size: 14, font, rotate: degrees(90) });
    turned.setRotation(degrees(90));
    const path = join(dir, 'boxes.pdf');
    writeFileSync(path, await pdf.save());
    const [poppler, pdfjs] = [await extract(path, 'pdftotext'), await extract(path, 'pdfjs')];
    assert.deepEqual(
      poppler.pages.map((p) => [p.width, p.height, p.text]),
      pdfjs.pages.map((p) => [p.width, p.height, p.text]),
    );
    assertSameWordsAndBoxes('cropped', poppler.pages[0]!, pdfjs.pages[0]!);
    const title = poppler.pages[1]!.items[0]!;
    assert.ok(title.x + title.width <= 400 && title.y + title.height <= 600, `inside the turned page: ${JSON.stringify(title)}`);
  });

  test('pdfinfo is started only for a PDF that may turn a page a quarter', { skip }, async (t) => {
    const bin = fakeCommandOnPath(t, 'pdfinfo', '#!/bin/sh\necho "$@" >> "$(dirname "$0")/runs"\nexec /usr/bin/pdfinfo "$@"\n');
    const runs = () => (existsSync(join(bin, 'runs')) ? readFileSync(join(bin, 'runs'), 'utf8').trim().split('\n').length : 0);
    const { PDFDocument, degrees } = await import('pdf-lib');
    const pdf = await PDFDocument.load(readFileSync(samples.find((s) => s.name === 'invoice.pdf')!.path));
    const plain = await extract(samples.find((s) => s.name === 'invoice.pdf')!.path, 'pdftotext');
    assert.equal(runs(), 0, 'an unturned PDF is read by pdftotext alone');
    pdf.getPage(0).setRotation(degrees(90));
    const path = join(dir, 'turned-invoice.pdf');
    writeFileSync(path, await pdf.save());
    const turned = await extract(path, 'pdftotext');
    assert.equal(runs(), 1, 'pdfinfo gives the turn');
    const page = plain.pages[0]!;
    assert.deepEqual([turned.pages[0]!.width, turned.pages[0]!.height], [page.height, page.width]);
  });

  test('the time limit kills the pdftotext process, which read the PDF from its stdin (no copy on disk)', { skip }, async (t) => {
    // Answers the availability probe like the real one, then hangs as a hostile PDF can make it.
    const bin = fakeCommandOnPath(
      t,
      'pdftotext',
      '#!/bin/sh\n[ "$1" = -v ] && exec /usr/bin/pdftotext -v\nfor arg; do file=$last; last=$arg; done\necho "$$ $file $(head -c 5)" > "$(dirname "$0")/pid"\nexec sleep 60\n',
    );
    const pidFile = join(bin, 'pid');
    const invoice = samples.find((s) => s.name === 'invoice.pdf')!;
    await assert.rejects(
      extractDocumentText(
        { bytes: new Uint8Array(readFileSync(invoice.path)), kind: 'pdf' },
        { pdfEngine: 'pdftotext', limits: { timeoutMs: 1000 } },
      ),
      (error: unknown) => error instanceof TextExtractionError && error.reason === 'timeout',
    );
    const [pid, input, head] = readFileSync(pidFile, 'utf8').trim().split(' ');
    assert.deepEqual([input, head], ['-', '%PDF-'], 'the PDF is named - and its bytes come on stdin');
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(Number(pid), 0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      } catch {
        alive = false;
      }
    }
    assert.equal(alive, false, `pdftotext (pid ${pid}) was killed`);
  });
});

describe('choosing the PDF engine', () => {
  test('DOCAGENT_PDF_ENGINE is pdftotext or pdfjs; anything else is an error naming both', async (t) => {
    const before = process.env.DOCAGENT_PDF_ENGINE;
    t.after(() => {
      if (before === undefined) delete process.env.DOCAGENT_PDF_ENGINE;
      else process.env.DOCAGENT_PDF_ENGINE = before;
    });
    process.env.DOCAGENT_PDF_ENGINE = 'pdfjs';
    assert.equal(await choosePdfEngine(), 'pdfjs');
    process.env.DOCAGENT_PDF_ENGINE = 'poppler';
    await assert.rejects(choosePdfEngine(), /DOCAGENT_PDF_ENGINE is "poppler"; use pdftotext or pdfjs/);
    delete process.env.DOCAGENT_PDF_ENGINE;
    assert.equal(
      await choosePdfEngine(),
      (await pdftotextAvailable()) ? 'pdftotext' : 'pdfjs',
      'by default poppler when installed',
    );
  });

  test('asking for pdftotext where poppler is not installed fails at the start of the document, saying what to do', () => {
    const empty = mkdtempSync(join(tmpdir(), 'docagent-no-poppler-'));
    try {
      // A process of its own: availability is checked once per process.
      const script = `import { choosePdfEngine } from ${JSON.stringify(new URL('../src/text/pdf-engine.ts', import.meta.url).href)};
        try { await choosePdfEngine(); console.log('chosen'); } catch (error) { console.log(error.message); }`;
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { PATH: empty, DOCAGENT_PDF_ENGINE: 'pdftotext' },
        encoding: 'utf8',
      });
      assert.match(
        out,
        /pdftotext and pdfinfo commands are not on PATH; install them \(apt-get install poppler-utils\) or set DOCAGENT_PDF_ENGINE=pdfjs/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("reading pdftotext's bbox output", () => {
  const output = [
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
    '<html xmlns="http://www.w3.org/1999/xhtml">\n<head>\n<title>R&amp;D &lt;notes&gt;</title>\n</head>\n<body>\n<doc>',
    '  <page width="595.000000" height="842.000000">',
    '    <word xMin="50.000000" yMin="64.076000" xMax="138.992000" yMax="80.726000">R&amp;D</word>',
    '    <word xMin="140.000000" yMin="64.076000" xMax="150.000000" yMax="80.726000">&lt;a&gt;&quot;b&quot;&apos;c&apos;</word>',
    // Characters poppler writes as they are: a control character, a line break, a NUL-free oddity.
    '    <word xMin="160.000000" yMin="64.076000" xMax="170.000000" yMax="80.726000">x\u0001y\nz</word>',
    '    <word xMin="170.000000" yMin="64.076000" xMax="171.000000" yMax="80.726000">\u0002 </word>',
    // Not the shape poppler prints today: read attribute by attribute.
    '    <word yMin="64.076000" xMin="180.000000" yMax="80.726000" xMax="190.000000">reordered</word>',
    '  </page>',
    '  <page width="595.000000" height="842.000000">\n  </page>',
    '</doc>\n</body>\n</html>\n',
  ].join('\n');

  const read = (chunks: string[]) => {
    const pages: BboxPage[] = [];
    const reader = new PdftotextBboxReader((page) => pages.push(page));
    for (const chunk of chunks) reader.push(chunk);
    reader.end();
    return pages;
  };

  test('words with their boxes and entities decoded, whatever characters they hold, however the output is cut', () => {
    const whole = read([output]);
    assert.equal(whole.length, 2, 'a blank page is a page');
    assert.deepEqual(whole[1], { width: 595, height: 842, words: [] });
    assert.deepEqual(
      whole[0]!.words.map((w) => w.text),
      ['R&D', '<a>"b"\'c\'', 'x\u0001y\nz', '\u0002 ', 'reordered'],
      'words are kept as poppler wrote them (the pipeline drops what PostgreSQL cannot store)',
    );
    assert.deepEqual(whole[0]!.words[0], { text: 'R&D', xMin: 50, yMin: 64.076, xMax: 138.992, yMax: 80.726 });
    assert.deepEqual(whole[0]!.words[4], { text: 'reordered', xMin: 180, yMin: 64.076, xMax: 190, yMax: 80.726 });
    assert.deepEqual(read([...output]), whole, 'one character at a time');
  });

  test('output that ends inside a page is an error, not a short document', () => {
    assert.throws(() => read([output.slice(0, output.indexOf('</page>'))]), /ended inside a page/);
  });
});
