import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import { openPdf } from '../text/pdf-document.ts';
import { renderPdfPage } from '../text/pdf-render.ts';
import type { DocumentKind, TextExtractionError } from '../text/types.ts';

/**
 * Documents for tests and benchmarks, generated here rather than downloaded or committed:
 * each sample with the phrases its text must yield, each bad input with the outcome it
 * must get. Generating all of them takes about a second.
 */

export interface Sample {
  /** The file name, also the name to upload it under. */
  name: string;
  path: string;
  kind: DocumentKind;
  mimeType: string;
  pageCount: number;
  /** Phrases the extracted text contains (compare lower-cased, whitespace collapsed). */
  expected: string[];
  /** For each page in order, a phrase found on that page and on no other. */
  pagePhrases: string[];
  /** How its text is made: a PDF text layer, OCR (either engine), or read as it is. */
  expectedEngine: 'pdf_text' | 'ocr' | 'plain';
}

export type BadInputOutcome =
  | { stage: 'upload'; status: 400 }
  | { stage: 'extraction'; reason: TextExtractionError['reason']; message: RegExp };

export interface BadInput {
  /** The name to upload it under (the file on disk may be named otherwise). */
  name: string;
  path: string;
  /** What the file is, for a person reading a test failure. */
  description: string;
  expected: BadInputOutcome;
}

/** Document names an upload must refuse whatever the content: path separators and control characters. */
export const BAD_DOCUMENT_NAMES: readonly string[] = [
  '../../etc/passwd.txt',
  'reports/2026/q3.pdf',
  'C:\\Users\\ana\\invoice.pdf',
  'bell\u0007.txt',
  'two\nlines.md',
  'nul\u0000byte.csv',
  'delete\u007f.pdf',
];

// ---------------------------------------------------------------------------------------
// Text PDFs, laid out like the real thing

/** One piece of text on a row: left-aligned at `x`, or right-aligned to end at `right`. */
type Cell = { text: string; x: number } | { text: string; right: number };

interface Row {
  cells: Cell[] | string;
  size?: number;
  bold?: boolean;
  /** Extra space above the row, in points. */
  before?: number;
}

interface PageSpec {
  size: [number, number];
  rows: Row[];
  /** A page number at the foot of the page ("Page 2 of 3"). */
  footer?: string;
}

const A4: [number, number] = [595, 842];
const MARGIN = 50;

function drawRows(page: PDFPage, fonts: { regular: PDFFont; bold: PDFFont }, spec: PageSpec): void {
  let baseline = spec.size[1] - MARGIN;
  for (const row of spec.rows) {
    const size = row.size ?? 10;
    const font = row.bold ? fonts.bold : fonts.regular;
    baseline -= (row.before ?? 0) + size * 1.5;
    const cells = typeof row.cells === 'string' ? [{ text: row.cells, x: MARGIN }] : row.cells;
    // Right to left, as some generators write tables: reading order must come from positions.
    for (const cell of [...cells].reverse()) {
      const x = 'x' in cell ? cell.x : cell.right - font.widthOfTextAtSize(cell.text, size);
      page.drawText(cell.text, { x, y: baseline, size, font });
    }
  }
  if (spec.footer) page.drawText(spec.footer, { x: MARGIN, y: 30, size: 8, font: fonts.regular });
}

async function textPdf(pages: PageSpec[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = { regular: await doc.embedFont(StandardFonts.Helvetica), bold: await doc.embedFont(StandardFonts.HelveticaBold) };
  for (const spec of pages) drawRows(doc.addPage(spec.size), fonts, spec);
  return doc.save();
}

const lineItem = (description: string, qty: string, price: string, amount: string): Row => ({
  cells: [
    { text: description, x: MARGIN },
    { text: qty, right: 360 },
    { text: price, right: 450 },
    { text: amount, right: 545 },
  ],
});

const INVOICE: PageSpec[] = [
  {
    size: A4,
    rows: [
      { cells: 'Northwind Traders Ltd.', size: 18, bold: true },
      { cells: '12 Harbour Road, Leith, Edinburgh EH6 6LX' },
      { cells: 'VAT number GB 123 4567 89' },
      { cells: 'INVOICE', size: 22, bold: true, before: 16 },
      { cells: 'Invoice number: INV-2026-0042', before: 8 },
      {
        cells: [
          { text: 'Invoice date: 2026-11-02', x: MARGIN },
          { text: 'Due date: 2026-12-02', x: 300 },
        ],
      },
      { cells: 'Bill to: Contoso Analytics GmbH, Hauptstrasse 5, 10115 Berlin' },
      { ...lineItem('Description', 'Qty', 'Unit price', 'Amount'), bold: true, before: 16 },
      lineItem('Document scanning service', '10', '45.00', '450.00'),
      lineItem('Schema design workshop', '1', '600.00', '600.00'),
      lineItem('Data validation (hours)', '2', '92.28', '184.56'),
      {
        cells: [
          { text: 'Total due:', x: 370 },
          { text: '1,234.56 EUR', right: 545 },
        ],
        size: 12,
        bold: true,
        before: 10,
      },
      { cells: 'Payment by bank transfer to IBAN GB29 NWBK 6016 1331 9268 19 within 30 days.', before: 24 },
    ],
  },
];

const RECEIPT_WIDTH = 230;
const receiptLine = (left: string, right: string, options: Partial<Row> = {}): Row => ({
  cells: [
    { text: left, x: 20 },
    { text: right, right: RECEIPT_WIDTH - 20 },
  ],
  ...options,
});

const RECEIPT: PageSpec[] = [
  {
    size: [RECEIPT_WIDTH, 420],
    rows: [
      { cells: [{ text: 'Corner Cafe', x: 20 }], size: 16, bold: true },
      { cells: [{ text: '14 Market Street, York', x: 20 }], size: 9 },
      receiptLine('Receipt 000731', '2026-11-20 08:42', { size: 9, before: 8 }),
      receiptLine('Flat white', '3.40', { before: 10 }),
      receiptLine('2 x Almond croissant', '5.50'),
      receiptLine('Orange juice', '3.50'),
      receiptLine('TOTAL', '12.40 GBP', { size: 12, bold: true, before: 8 }),
      { cells: [{ text: 'Paid by card ending 4242', x: 20 }], size: 9, before: 10 },
      { cells: [{ text: 'Thank you for your visit!', x: 20 }], size: 9 },
    ],
  },
];

const CONTRACT_PAGES: Array<{ heading: string; paragraphs: string[] }> = [
  {
    heading: 'Section 1. Scope of Services',
    paragraphs: [
      'The Provider converts incoming shipping documents into structured records',
      'and delivers them to the Client within one business day of receipt.',
    ],
  },
  {
    heading: 'Section 2. Payment Terms',
    paragraphs: [
      'The Client pays each invoice within thirty (30) days of its date.',
      'Late payments bear interest of one percent per month.',
    ],
  },
  {
    heading: 'Section 3. Termination',
    paragraphs: [
      'Either party may terminate this Agreement with ninety days written notice.',
      'Signed in Seattle on 1 November 2026.',
    ],
  },
];

const CONTRACT: PageSpec[] = CONTRACT_PAGES.map((section, i) => ({
  size: A4,
  rows: [
    ...(i === 0
      ? [
          { cells: 'Master Services Agreement', size: 18, bold: true },
          { cells: 'between Fabrikam Logistics Inc. ("Client") and Tailspin Data LLC ("Provider").', before: 6 },
        ]
      : []),
    { cells: section.heading, size: 14, bold: true, before: 12 },
    ...section.paragraphs.map((text) => ({ cells: text, size: 11 })),
  ],
  footer: `Page ${i + 1} of ${CONTRACT_PAGES.length}`,
}));

// Large type, as a scan of a printed notice would show it: both OCR engines read it reliably.
const SCAN: PageSpec[] = [
  {
    size: A4,
    rows: [
      { cells: 'DELIVERY NOTE', size: 30, bold: true },
      { cells: 'Order number 58213', size: 24, before: 12 },
      { cells: 'Deliver to Bluebird Warehouse', size: 24 },
    ],
  },
  {
    size: A4,
    rows: [
      { cells: 'Received in good condition', size: 24 },
      { cells: 'Signature of the driver', size: 24 },
    ],
  },
];

const PNG_PAGE: PageSpec[] = [
  {
    size: A4,
    rows: [
      { cells: 'PACKING SLIP', size: 30, bold: true },
      { cells: 'Fragile glassware', size: 24, before: 12 },
      { cells: 'Handle with care', size: 24 },
    ],
  },
];

// ---------------------------------------------------------------------------------------
// Scans: pages rendered to images, as a scanner would produce them

/** PNG images of a PDF's pages at `dpi`. */
async function renderPages(pdf: Uint8Array, dpi: number): Promise<Uint8Array[]> {
  const doc = await openPdf(pdf);
  const images: Uint8Array[] = [];
  for (let n = 1; n <= doc.numPages; n++) images.push(await renderPdfPage(await doc.getPage(n), dpi / 72));
  return images;
}

/** A PDF whose pages are images only, with no text layer. */
async function imageOnlyPdf(images: Uint8Array[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const png of images) {
    const image = await doc.embedPng(png);
    doc.addPage(A4).drawImage(image, { x: 0, y: 0, width: A4[0], height: A4[1] });
  }
  return doc.save();
}

/** Writes files into `dir` (made if missing) and returns their paths. */
function writerTo(dir: string): (name: string, bytes: Uint8Array | string) => string {
  mkdirSync(dir, { recursive: true });
  return (name, bytes) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
}

export async function buildSampleCorpus(dir: string): Promise<Sample[]> {
  const write = writerTo(dir);
  const scanned = await imageOnlyPdf(await renderPages(await textPdf(SCAN), 150));
  const [png] = await renderPages(await textPdf(PNG_PAGE), 150);
  return [
    {
      name: 'invoice.pdf',
      path: write('invoice.pdf', await textPdf(INVOICE)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      expected: [
        'Northwind Traders Ltd.',
        'Invoice number: INV-2026-0042',
        'Invoice date: 2026-11-02 Due date: 2026-12-02',
        'Schema design workshop 1 600.00 600.00',
        'Total due: 1,234.56 EUR',
      ],
      pagePhrases: ['INV-2026-0042'],
      expectedEngine: 'pdf_text',
    },
    {
      name: 'receipt.pdf',
      path: write('receipt.pdf', await textPdf(RECEIPT)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      expected: ['Corner Cafe', 'Receipt 000731 2026-11-20 08:42', '2 x Almond croissant 5.50', 'TOTAL 12.40 GBP'],
      pagePhrases: ['Receipt 000731'],
      expectedEngine: 'pdf_text',
    },
    {
      name: 'contract.pdf',
      path: write('contract.pdf', await textPdf(CONTRACT)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: CONTRACT.length,
      expected: ['Master Services Agreement', 'within thirty (30) days of its date', 'Page 3 of 3'],
      pagePhrases: CONTRACT_PAGES.map((section) => section.heading),
      expectedEngine: 'pdf_text',
    },
    {
      name: 'scanned-delivery-note.pdf',
      path: write('scanned-delivery-note.pdf', scanned),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: SCAN.length,
      expected: ['DELIVERY NOTE', 'Order number 58213', 'Received in good condition'],
      pagePhrases: ['Bluebird Warehouse', 'Signature of the driver'],
      expectedEngine: 'ocr',
    },
    {
      name: 'packing-slip.png',
      path: write('packing-slip.png', png!),
      kind: 'image',
      mimeType: 'image/png',
      pageCount: 1,
      expected: ['PACKING SLIP', 'Fragile glassware', 'Handle with care'],
      pagePhrases: ['Fragile glassware'],
      expectedEngine: 'ocr',
    },
    {
      name: 'shipments.csv',
      // With the byte order mark that spreadsheet programs write.
      path: write(
        'shipments.csv',
        '\uFEFFshipment_id,origin,destination,weight_kg\r\nS-1001,Rotterdam,Hamburg,1250\r\nS-1002,Antwerp,Lyon,830\r\n',
      ),
      kind: 'csv',
      mimeType: 'text/csv',
      pageCount: 1,
      expected: ['shipment_id,origin,destination,weight_kg', 'S-1002,Antwerp,Lyon,830'],
      pagePhrases: ['S-1001,Rotterdam'],
      expectedEngine: 'plain',
    },
    {
      name: 'meeting-notes.md',
      path: write(
        'meeting-notes.md',
        '# Weekly sync\n\n- Ship the extraction schema for invoices\n- Review the **receipt** prompt\n\n| owner | task |\n|---|---|\n| Ana | OCR tuning |\n',
      ),
      kind: 'markdown',
      mimeType: 'text/markdown',
      pageCount: 1,
      expected: ['# Weekly sync', 'Ship the extraction schema for invoices', '| Ana | OCR tuning |'],
      pagePhrases: ['Weekly sync'],
      expectedEngine: 'plain',
    },
  ];
}

// ---------------------------------------------------------------------------------------
// Bad inputs

/** A PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of 40,000 × 40,000 black pixels in 2.5 KB: decoding it would need 1.6 GB. */
function decompressionBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40_000, 0);
  header.writeUInt32BE(40_000, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  // The first 64 rows (filter byte + pixels) of zeros; a decoder gives up only after allocating.
  const rows = deflateSync(Buffer.alloc(40_001 * 64));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PDF written object by object, with a correct cross-reference table (objects are numbered from 1). */
function handWrittenPdf(objects: string[], trailer: string): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [i, object] of objects.entries()) {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * A PDF under the standard security handler whose user password is not empty, so that a
 * reader must ask for it. By hand, because pdf-lib cannot encrypt; the O and U entries
 * are arbitrary, which no password opens.
 */
function encryptedPdf(): Buffer {
  const hex = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => ((i * 37 + seed) & 0xff).toString(16).padStart(2, '0')).join('');
  return handWrittenPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
      `<< /Filter /Standard /V 1 /R 2 /O <${hex(32, 11)}> /U <${hex(32, 97)}> /P -4 >>`,
    ],
    `/Encrypt 4 0 R /ID [<${hex(16, 5)}> <${hex(16, 5)}>]`,
  );
}

/** Blank pages in one flat page tree, by hand: pdf-lib takes 1.7 s for 10,000 pages, this a few ms. */
function blankPagesPdf(count: number): Buffer {
  const pages = Array.from({ length: count }, () => '<< /Type /Page /Parent 2 0 R >>');
  const kids = pages.map((_, i) => `${i + 3} 0 R`).join(' ');
  return handWrittenPdf(
    ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /MediaBox [0 0 595 842] /Count ${count} /Kids [${kids}] >>`, ...pages],
    '',
  );
}

/**
 * A one-page PDF whose text layer holds a NUL character (`\000` in the content stream), which
 * PostgreSQL can store neither in text nor in jsonb. Its text reads `NUL_PDF_TEXT` once the NUL is
 * dropped. By hand, because pdf-lib's standard fonts refuse to encode the character.
 */
export const NUL_PDF_TEXT = 'Invoice 2024-117 with a NULhere in its text layer';
export function nulTextLayerPdf(): Buffer {
  const content = `BT /F1 12 Tf 72 700 Td (${NUL_PDF_TEXT.replace('NULhere', 'NUL\\000here')}) Tj ET`;
  return handWrittenPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ],
    '',
  );
}

export async function buildBadInputs(dir: string): Promise<BadInput[]> {
  const write = writerTo(dir);
  const invoice = await textPdf(INVOICE);
  const [png] = await renderPages(await textPdf(PNG_PAGE), 72);
  return [
    {
      name: 'encrypted.pdf',
      path: write('encrypted.pdf', encryptedPdf()),
      description: 'a PDF that needs a password',
      expected: { stage: 'extraction', reason: 'encrypted', message: /password-protected/ },
    },
    {
      name: 'truncated.pdf',
      path: write('truncated.pdf', invoice.subarray(0, Math.floor(invoice.length / 2))),
      description: 'the first half of a valid PDF',
      expected: { stage: 'extraction', reason: 'malformed', message: /truncated/ },
    },
    {
      name: 'malformed.pdf',
      path: write('malformed.pdf', `%PDF-1.7\n${'this is not a PDF body '.repeat(50)}\n%%EOF\n`),
      description: 'a PDF header followed by garbage',
      expected: { stage: 'extraction', reason: 'malformed', message: /cannot be read/ },
    },
    {
      name: 'bomb.png',
      path: write('bomb.png', decompressionBomb()),
      description: 'a 2.5 KB PNG that declares 40000×40000 pixels',
      expected: { stage: 'extraction', reason: 'too_large', message: /40000×40000 pixels/ },
    },
    {
      name: 'cut-off.png',
      path: write('cut-off.png', png!.subarray(0, Math.floor(png!.length / 2))),
      description: 'the first half of a valid PNG: its header reads, its pixels do not',
      expected: { stage: 'extraction', reason: 'malformed', message: /cannot be decoded/ },
    },
    {
      name: 'ten-thousand-pages.pdf',
      path: write('ten-thousand-pages.pdf', blankPagesPdf(10_000)),
      description: 'a PDF of 10,000 blank pages',
      expected: { stage: 'extraction', reason: 'too_many_pages', message: /has 10000 pages; the limit is 2000/ },
    },
    {
      name: 'invoice.pdf',
      path: write('png-named-invoice.pdf', png!),
      description: 'a PNG image named like a PDF',
      expected: { stage: 'upload', status: 400 },
    },
    {
      name: 'empty.txt',
      path: write('empty.txt', ''),
      description: 'an empty file',
      expected: { stage: 'upload', status: 400 },
    },
  ];
}
