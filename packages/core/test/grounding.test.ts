import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type Citation,
  type CitationBox,
  citeResult,
  extractDocumentText,
  fieldsToReview,
  leafValues,
  normalizeText,
  type PageText,
  type PdfEngineName,
  type PositionedText,
  parseAmount,
  parseDates,
  pdftotextAvailable,
  valueKeys,
} from '../src/index.ts';
import { buildSampleCorpus, type Sample } from '../src/testing/sample-corpus.ts';

/** The invoices with ground truth live beside the repository: ../shared/data/invoices (or DOCAGENT_INVOICES_DIR). */
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const INVOICES = process.env.DOCAGENT_INVOICES_DIR ?? resolve(REPO_ROOT, '..', 'shared', 'data', 'invoices');
const NO_INVOICES = existsSync(join(INVOICES, 'labels'))
  ? false
  : `the invoices with ground truth are not at ${INVOICES} (set DOCAGENT_INVOICES_DIR to where docs/ and labels/ are)`;

const word = (text: string, x: number, y: number, width = text.length * 6, height = 10, confidence?: number): PositionedText => ({
  text,
  x,
  y,
  width,
  height,
  ...(confidence === undefined ? {} : { confidence }),
});

const pageOf = (items: PositionedText[], page = 1): PageText => ({
  page,
  text: items.map((i) => i.text).join(' '),
  width: 612,
  height: 792,
  engine: 'pdf_text',
  items,
});

/** Words at the left margin, one line each, from a list of lines of words. */
function linesPage(lines: string[][], page = 1): PageText {
  const items: PositionedText[] = [];
  lines.forEach((words, row) => {
    let x = 50;
    for (const w of words) {
      items.push(word(w, x, 50 + row * 14));
      x += w.length * 6 + 4;
    }
  });
  return pageOf(items, page);
}

const byPath = (citations: Citation[], path: string): Citation => {
  const found = citations.find((c) => c.path === path);
  assert.ok(found, `a citation for ${path} in ${JSON.stringify(citations.map((c) => c.path))}`);
  return found;
};

const inside = (inner: CitationBox, outer: CitationBox, slack = 0.5): boolean =>
  inner.x >= outer.x - slack &&
  inner.y >= outer.y - slack &&
  inner.x + inner.width <= outer.x + outer.width + slack &&
  inner.y + inner.height <= outer.y + outer.height + slack;

describe('value forms', () => {
  test('amounts are the same number whatever their separators, currency and spacing', () => {
    for (const text of [
      '1,234.50',
      '1.234,50',
      '1234.5',
      '1234.50',
      '$1,234.50',
      '1 234,50',
      '€ 1.234,50',
      'USD 1,234.50',
      "1'234.50",
    ]) {
      assert.equal(parseAmount(text), 1234.5, text);
    }
    assert.equal(parseAmount('1,234'), 1234);
    assert.equal(parseAmount('1,5'), 1.5);
    assert.equal(parseAmount('1.234.567'), 1234567);
    assert.equal(parseAmount('-42.10'), -42.1);
    assert.equal(parseAmount('(42.10)'), -42.1);
    for (const text of ['INV-2026', '2012-11-15', '15.11.2012', 'abc', '', '3 75.51', '1,23,4']) {
      assert.equal(parseAmount(text), null, text);
    }
    assert.deepEqual(valueKeys(1234.5), valueKeys('$1,234.50'));
    assert.deepEqual(valueKeys('2257.54'), valueKeys('$2,257.54'));
  });

  test('dates are the same day whatever their notation', () => {
    for (const text of [
      'Nov 15 2012',
      'Nov. 15, 2012',
      'November 15th, 2012',
      '15 November 2012',
      '15-Nov-2012',
      '2012-11-15',
      '2012-11-15T00:00:00Z',
      '11/15/2012',
      '15.11.2012',
      '15/11/2012',
    ]) {
      assert.deepEqual(parseDates(text), ['2012-11-15'], text);
    }
    assert.deepEqual(parseDates('05/06/2012'), ['2012-05-06', '2012-06-05'], 'a slash date either way round, month first');
    assert.deepEqual(parseDates('31.02.2012'), [], 'no such day');
    assert.deepEqual(parseDates('Total 2012'), []);
    assert.ok(valueKeys('2012-11-15').every((k) => valueKeys('Nov 15 2012').includes(k)));
  });

  test('text is the same whatever its case and spacing', () => {
    assert.equal(normalizeText('  First\u00a0 CLASS\n'), 'first class');
  });

  test('the leaves of a result: strings and numbers with their paths and labels, not booleans, nulls or empty strings', () => {
    const leaves = leafValues({
      invoiceNumber: 'A-1',
      total: 12.5,
      paid: true,
      note: null,
      memo: '',
      line_items: [{ amount: 3 }, { amount: 4 }],
      parties: ['Acme', 'Globex'],
      'odd key': 'x',
    });
    assert.deepEqual(
      leaves.map((l) => [l.path, l.value, l.label.join(' ')]),
      [
        ['invoiceNumber', 'A-1', 'invoice number'],
        ['total', 12.5, 'total'],
        ['line_items[0].amount', 3, 'amount'],
        ['line_items[1].amount', 4, 'amount'],
        ['parties[0]', 'Acme', 'parties'],
        ['parties[1]', 'Globex', 'parties'],
        ['["odd key"]', 'x', 'odd key'],
      ],
    );
  });
});

describe('locating values on pages', () => {
  test('exact, normalized (amount, date, case) and not found, with their confidence and the fields to review', () => {
    const page = linesPage([
      ['ACME', 'Corp'],
      ['Invoice', 'date:', 'Nov', '15', '2012'],
      ['Ship', 'mode:', 'FIRST', 'CLASS'],
      ['Total:', '$1,234.50'],
    ]);
    const citations = citeResult([page], {
      vendor: 'ACME Corp',
      date: '2012-11-15',
      ship_mode: 'First Class',
      total: 1234.5,
      currency: 'EUR',
      paid: false,
    });
    assert.deepEqual(
      citations.map((c) => [c.path, c.match, c.page, c.text, c.confidence]),
      [
        ['vendor', 'exact', 1, 'ACME Corp', 0.95],
        ['date', 'normalized', 1, 'Nov 15 2012', 0.9],
        ['ship_mode', 'normalized', 1, 'FIRST CLASS', 0.9],
        ['total', 'normalized', 1, '$1,234.50', 0.9],
        ['currency', 'not_found', null, '', 0.2],
      ],
    );
    assert.deepEqual(byPath(citations, 'currency').boxes, []);
    assert.deepEqual(fieldsToReview(citations, 0.7), ['currency']);
    assert.deepEqual(fieldsToReview(citations, 0.92), ['date', 'ship_mode', 'total', 'currency']);
    const total = byPath(citations, 'total');
    assert.deepEqual(total.boxes, [{ x: 50 + 6 * 6 + 4, y: 50 + 3 * 14, width: 9 * 6, height: 10 }]);
  });

  test('a number inside a longer number is not it; a document without pages has every value not found', () => {
    const page = linesPage([
      ['Year', '2012'],
      ['Order', '120'],
    ]);
    const [twelve] = citeResult([page], { n: '12' });
    assert.equal(twelve?.match, 'not_found');
    assert.deepEqual(
      citeResult([], { a: 'x', b: 2 }).map((c) => [c.path, c.match, c.confidence]),
      [
        ['a', 'not_found', 0.2],
        ['b', 'not_found', 0.2],
      ],
    );
  });

  test('prose the model wrote (over 200 characters) and not on the page has no citation and nothing to review', () => {
    const sentence = 'This invoice from SuperStore bills an order shipped the same day. '.repeat(4).trim();
    const page = linesPage([['Invoice', '30140'], sentence.split(' ')]);
    const citations = citeResult([page], {
      summary: `A summary the model wrote itself: ${'words '.repeat(50)}`,
      id: '30140',
      quote: sentence,
    });
    assert.deepEqual(
      citations.map((c) => [c.path, c.match]),
      [
        ['id', 'exact'],
        ['quote', 'exact'],
      ],
    );
    assert.deepEqual(fieldsToReview(citations, 0.7), []);
  });

  test('a value that occurs twenty times is the one nearest to its label; without a label, the first', () => {
    const lines: string[][] = [];
    for (let i = 0; i < 19; i++) lines.push([`Item ${i}`, '100.00']);
    lines.push(['Shipping', '5.00']);
    lines.push(['Total', '100.00']);
    const citations = citeResult([linesPage(lines)], { total: '100.00', amount: '100.00' });
    const total = byPath(citations, 'total');
    assert.equal(total.match, 'exact');
    assert.equal(total.boxes[0]?.y, 50 + 20 * 14, 'the 100.00 on the Total line');
    assert.equal(byPath(citations, 'amount').boxes[0]?.y, 50, 'no "amount" on the page: the first');
    // On another page than the label's the value loses to the one beside its label.
    const two = citeResult(
      [
        linesPage([['Grand', '9.99']], 1),
        linesPage(
          [
            ['x', '9.99'],
            ['Grand', 'total:', '9.99'],
          ],
          2,
        ),
      ],
      {
        grand_total: '9.99',
      },
    );
    assert.equal(two[0]?.page, 1, 'label words on both pages: the nearest is on page 1');
  });

  test('a value spread over two lines is one citation with a box per line', () => {
    const page = linesPage([
      ['Bill', 'to:', '12', 'Harbour'],
      ['Road,', 'Leith'],
      ['Total:', '5.00'],
    ]);
    const [address] = citeResult([page], { bill_to: '12 Harbour Road, Leith' });
    assert.equal(address?.match, 'exact');
    assert.equal(address?.text, '12 Harbour Road, Leith');
    assert.equal(address?.boxes.length, 2);
    assert.equal(address?.boxes[0]?.y, 50);
    assert.equal(address?.boxes[1]?.y, 64);
  });

  test('a pdf.js run is cut into words with proportional boxes; a word drawn as two runs is one word', () => {
    const run = 'Invoice number: INV-2026-0042';
    const page = pageOf([
      word(run, 100, 200, run.length * 5),
      word('Total', 100, 220, 25),
      word('1,2', 300, 220, 15),
      word('34.56', 315, 220, 25),
    ]);
    const citations = citeResult([page], { invoice_number: 'INV-2026-0042', total: '1,234.56' });
    const number = byPath(citations, 'invoice_number');
    assert.equal(number.match, 'exact');
    assert.deepEqual(number.boxes, [{ x: 100 + 16 * 5, y: 200, width: 13 * 5, height: 10 }]);
    const total = byPath(citations, 'total');
    assert.equal(total.match, 'exact');
    assert.equal(total.text, '1,234.56');
    assert.deepEqual(total.boxes, [{ x: 300, y: 220, width: 40, height: 10 }]);
  });

  test("OCR noise: a fuzzy match, less sure, and an OCR word's own confidence lowers a match", () => {
    const page = pageOf([
      word('Deliver', 50, 50, 40, 12, 95),
      word('to', 95, 50, 10, 12, 96),
      word('Chinandcga', 110, 50, 60, 12, 60),
    ]);
    const citations = citeResult([page], { city: 'Chinandega', who: 'Deliver' });
    const city = byPath(citations, 'city');
    assert.equal(city.match, 'fuzzy');
    assert.equal(city.text, 'Chinandcga');
    assert.ok(city.confidence >= 0.3 && city.confidence < 0.7, `fuzzy and a poor OCR word: ${city.confidence}`);
    assert.equal(byPath(citations, 'who').confidence, 0.95, 'an OCR word read at 95 keeps its match confidence');
    assert.deepEqual(fieldsToReview(citations, 0.7), ['city']);
  });
});

/** Whether the value can be read in the page's text at all: as it is, or as the same amount or date. */
function appearsIn(value: string, text: string): boolean {
  if (normalizeText(text).includes(normalizeText(value))) return true;
  const keys = valueKeys(value);
  if (keys.length === 0) return false;
  const words = text.split(/\s+/).filter((w) => w !== '');
  for (let i = 0; i < words.length; i++) {
    for (let n = 1; n <= 3 && i + n <= words.length; n++) {
      if (
        valueKeys(
          words
            .slice(i, i + n)
            .join(' ')
            .replace(/[:;]$/, ''),
        ).some((k) => keys.includes(k))
      )
        return true;
    }
  }
  return false;
}

/**
 * A citation is right when it is on the value's page and its boxes hold words that read as the
 * value: the items its boxes cover contain the cited text, the boxes lie within those items, and
 * the cited text is the value (as it is or the same amount or date).
 */
function checkCitation(pages: PageText[], c: Citation, value: string, page: number): { rightPage: boolean; boxHolds: boolean } {
  const rightPage = c.page === page;
  if (!rightPage) return { rightPage, boxHolds: false };
  const items = pages.find((p) => p.page === page)!.items;
  const compact = (s: string) => normalizeText(s).replace(/\s/g, '');
  const boxHolds = c.boxes.every((box) => {
    const under = items.filter(
      (i) => i.x < box.x + box.width && i.x + i.width > box.x && i.y < box.y + box.height && i.y + i.height > box.y,
    );
    if (under.length === 0) return false;
    const union = {
      x: Math.min(...under.map((i) => i.x)),
      y: Math.min(...under.map((i) => i.y)),
      width: Math.max(...under.map((i) => i.x + i.width)) - Math.min(...under.map((i) => i.x)),
      height: Math.max(...under.map((i) => i.y + i.height)) - Math.min(...under.map((i) => i.y)),
    };
    return inside(box, union);
  });
  const citedWords = compact(c.text);
  const itemsText = compact(
    items
      .filter((i) =>
        c.boxes.some((b) => i.x < b.x + b.width && i.x + i.width > b.x && i.y < b.y + b.height && i.y + i.height > b.y),
      )
      .map((i) => i.text)
      .join(''),
  );
  const readsAsValue =
    citedWords.includes(compact(value)) || valueKeys(c.text.replace(/[:;]$/, '')).some((k) => valueKeys(value).includes(k));
  return { rightPage, boxHolds: boxHolds && itemsText.includes(citedWords) && readsAsValue };
}

const ENGINES: PdfEngineName[] = (await pdftotextAvailable()) ? ['pdftotext', 'pdfjs'] : ['pdfjs'];

describe('the 20 invoices with ground truth', { skip: NO_INVOICES }, () => {
  for (const pdfEngine of ENGINES) {
    test(`≥ 90 % of the values in the text are cited on their page, in a box around their words (${pdfEngine})`, async (t) => {
      const files = readdirSync(join(INVOICES, 'docs')).filter((f) => f.endsWith('.pdf'));
      assert.equal(files.length, 20);
      let values = 0;
      let inText = 0;
      let found = 0;
      let rightPage = 0;
      let boxed = 0;
      const misses: string[] = [];
      for (const file of files) {
        const { pages } = await extractDocumentText(
          { bytes: new Uint8Array(readFileSync(join(INVOICES, 'docs', file))), kind: 'pdf' },
          { pdfEngine },
        );
        const { __meta__: _, ...labels } = JSON.parse(
          readFileSync(join(INVOICES, 'labels', file.replace(/\.pdf$/, '.json')), 'utf8'),
        );
        const citations = citeResult(pages, labels);
        for (const [key, value] of Object.entries(labels)) {
          if (typeof value !== 'string' && typeof value !== 'number') continue;
          values++;
          const truthPage = pages.find((p) => appearsIn(String(value), p.text))?.page;
          if (truthPage === undefined) continue;
          inText++;
          const c = byPath(citations, key);
          if (c.match !== 'not_found') found++;
          const check = checkCitation(pages, c, String(value), truthPage);
          if (check.rightPage) rightPage++;
          if (check.boxHolds) boxed++;
          else misses.push(`${file} ${key}=${JSON.stringify(value)}: ${c.match} p${c.page} "${c.text}"`);
        }
      }
      const pct = (n: number) => `${((100 * n) / inText).toFixed(1)} %`;
      t.diagnostic(
        `${pdfEngine}: ${values} values, ${inText} in the text; cited ${found} (${pct(found)}), on the right page ${rightPage} (${pct(rightPage)}), box around the words ${boxed} (${pct(boxed)})`,
      );
      if (misses.length > 0) t.diagnostic(`missed: ${misses.join('; ')}`);
      assert.ok(inText >= 150, `most values are in the text (${inText} of ${values})`);
      assert.ok(boxed / inText >= 0.9, `${pct(boxed)} cited in a box around their words; missed: ${misses.join('; ')}`);
    });
  }
});

describe('the sample corpus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-grounding-'));
  let samples: Sample[];
  before(async () => {
    samples = await buildSampleCorpus(join(dir, 'samples'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const pagesOf = async (name: string): Promise<PageText[]> => {
    const s = samples.find((x) => x.name === name)!;
    return (await extractDocumentText({ bytes: new Uint8Array(readFileSync(s.path)), kind: s.kind })).pages;
  };

  test('the sample invoice: its number, dates, total and a line amount among equal ones', async () => {
    const pages = await pagesOf('invoice.pdf');
    const citations = citeResult(pages, {
      invoice_number: 'INV-2026-0042',
      invoice_date: '2 November 2026',
      due_date: '2026-12-02',
      total_due: 1234.56,
      vendor: 'northwind traders ltd.',
      line_items: [{ description: 'Schema design workshop', amount: 600 }],
    });
    const expected: Record<string, [Citation['match'], string]> = {
      invoice_number: ['exact', 'INV-2026-0042'],
      invoice_date: ['normalized', '2026-11-02'],
      due_date: ['exact', '2026-12-02'],
      total_due: ['normalized', '1,234.56'],
      vendor: ['normalized', 'Northwind Traders Ltd.'],
      'line_items[0].description': ['exact', 'Schema design workshop'],
      'line_items[0].amount': ['normalized', '600.00'],
    };
    for (const [path, [match, text]] of Object.entries(expected)) {
      const c = byPath(citations, path);
      assert.equal(c.match, match, path);
      assert.equal(c.page, 1, path);
      assert.equal(c.text, text, path);
      assert.ok(c.boxes.length === 1 && c.boxes[0]!.width > 0, path);
      assert.equal(checkCitation(pages, c, text, 1).boxHolds, true, `${path}: the box holds "${text}"`);
    }
  });

  test('the contract: each section heading on its own page', async () => {
    const contract = samples.find((s) => s.name === 'contract.pdf')!;
    const pages = await pagesOf('contract.pdf');
    const citations = citeResult(pages, {
      sections: contract.pagePhrases,
      parties: ['Fabrikam Logistics Inc.', 'Tailspin Data LLC'],
    });
    contract.pagePhrases.forEach((heading, i) => {
      const c = byPath(citations, `sections[${i}]`);
      assert.deepEqual([c.match, c.page, c.text], ['exact', i + 1, heading]);
    });
    assert.equal(byPath(citations, 'parties[1]').page, 1);
  });

  test('the scanned delivery note (OCR words): its order number and addressee', async () => {
    const pages = await pagesOf('scanned-delivery-note.pdf');
    const citations = citeResult(pages, {
      order_number: '58213',
      deliver_to: 'Bluebird Warehouse',
      signed: 'Signature of the driver',
    });
    for (const [path, page] of [
      ['order_number', 1],
      ['deliver_to', 1],
      ['signed', 2],
    ] as const) {
      const c = byPath(citations, path);
      assert.notEqual(c.match, 'not_found', path);
      assert.equal(c.page, page, path);
      assert.ok(c.confidence > 0.5, `${path}: ${c.confidence}`);
    }
  });
});
