import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { openPdf, renderPdfPage } from '../text/pdf-document.ts';
import type { DocumentKind, TextExtractionError } from '../text/types.ts';

/**
 * Documents for tests and benchmarks, generated here rather than downloaded or committed:
 * each sample with the phrases its text must yield, each bad input with the outcome it
 * must get.
 */

export interface Sample {
  name: string;
  path: string;
  kind: DocumentKind;
  mimeType: string;
  pageCount: number;
  /** Phrases the extracted text contains (compare lower-cased, whitespace collapsed). */
  expected: string[];
  /** How its text is made: a PDF text layer, OCR (either engine), or read as it is. */
  expectedEngine: 'pdf_text' | 'ocr' | 'plain';
}

export interface BadInput {
  name: string;
  path: string;
  expected: { stage: 'upload'; status: 400 } | { stage: 'extraction'; reason: TextExtractionError['reason']; message: RegExp };
}

type Line = { text: string; size?: number };

const A4: [number, number] = [595, 842];

async function textPdf(pages: Line[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Record<'regular' | 'bold', PDFFont> = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };
  for (const lines of pages) {
    const page = doc.addPage(A4);
    let y = A4[1] - 60;
    for (const line of lines) {
      const size = line.size ?? 11;
      page.drawText(line.text, { x: 50, y, size, font: size > 14 ? fonts.bold : fonts.regular });
      y -= size * 1.6;
    }
  }
  return doc.save();
}

const INVOICE: Line[][] = [
  [
    { text: 'Northwind Traders Ltd.', size: 18 },
    { text: '12 Harbour Road, Leith, Edinburgh EH6 6LX' },
    { text: 'INVOICE', size: 22 },
    { text: 'Invoice number: INV-2026-0042' },
    { text: 'Invoice date: 2026-11-02    Due date: 2026-12-02' },
    { text: 'Bill to: Contoso Analytics GmbH, Hauptstrasse 5, 10115 Berlin' },
    { text: 'Description                      Qty    Unit price    Amount' },
    { text: 'Document scanning service         10        45.00      450.00' },
    { text: 'Schema design workshop             1       600.00      600.00' },
    { text: 'Data validation (hours)            2        92.28      184.56' },
    { text: 'Total due: 1,234.56 EUR', size: 14 },
    { text: 'Payment by bank transfer to IBAN GB29 NWBK 6016 1331 9268 19' },
  ],
];

const RECEIPT: Line[][] = [
  [
    { text: 'Corner Cafe', size: 18 },
    { text: 'Receipt 000731    2026-11-20 08:42' },
    { text: 'Flat white          1 x 3.40     3.40' },
    { text: 'Almond croissant    2 x 2.75     5.50' },
    { text: 'Orange juice        1 x 3.50     3.50' },
    { text: 'TOTAL 12.40 GBP', size: 14 },
    { text: 'Paid by card ending 4242. Thank you for your visit!' },
  ],
];

const CONTRACT: Line[][] = [
  [
    { text: 'Master Services Agreement', size: 18 },
    { text: 'between Fabrikam Logistics Inc. ("Client") and Tailspin Data LLC ("Provider").' },
    { text: 'Section 1. Scope of Services', size: 14 },
    { text: 'The Provider converts incoming shipping documents into structured records.' },
  ],
  [
    { text: 'Section 2. Payment Terms', size: 14 },
    { text: 'The Client pays each invoice within thirty (30) days of its date.' },
    { text: 'Late payments bear interest of one percent per month.' },
  ],
  [
    { text: 'Section 3. Termination', size: 14 },
    { text: 'Either party may terminate this Agreement with ninety days written notice.' },
    { text: 'Signed in Seattle on 1 November 2026.' },
  ],
];

// Large type, as a scan of a printed page would show it: OCR reads it reliably.
const SCAN: Line[][] = [
  [
    { text: 'DELIVERY NOTE', size: 30 },
    { text: 'Order number 58213', size: 24 },
    { text: 'Deliver to Bluebird Warehouse', size: 24 },
  ],
  [
    { text: 'Received in good condition', size: 24 },
    { text: 'Signature of the driver', size: 24 },
  ],
];

const PNG_PAGE: Line[][] = [
  [
    { text: 'PACKING SLIP', size: 30 },
    { text: 'Fragile glassware', size: 24 },
    { text: 'Handle with care', size: 24 },
  ],
];

/** PNG images of a PDF's pages at `dpi`, as a scanner would produce them. */
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

export async function buildSampleCorpus(dir: string): Promise<Sample[]> {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, bytes: Uint8Array | string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const scanSource = await textPdf(SCAN);
  const scanned = await imageOnlyPdf(await renderPages(scanSource, 150));
  const [png] = await renderPages(await textPdf(PNG_PAGE), 150);
  return [
    {
      name: 'invoice.pdf',
      path: write('invoice.pdf', await textPdf(INVOICE)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      expected: ['Northwind Traders', 'INV-2026-0042', 'Schema design workshop', 'Total due: 1,234.56 EUR'],
      expectedEngine: 'pdf_text',
    },
    {
      name: 'receipt.pdf',
      path: write('receipt.pdf', await textPdf(RECEIPT)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 1,
      expected: ['Corner Cafe', 'Almond croissant', 'TOTAL 12.40 GBP'],
      expectedEngine: 'pdf_text',
    },
    {
      name: 'contract.pdf',
      path: write('contract.pdf', await textPdf(CONTRACT)),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 3,
      expected: [
        'Master Services Agreement',
        'Section 1. Scope of Services',
        'Section 2. Payment Terms',
        'Section 3. Termination',
      ],
      expectedEngine: 'pdf_text',
    },
    {
      name: 'scanned-delivery-note.pdf',
      path: write('scanned-delivery-note.pdf', scanned),
      kind: 'pdf',
      mimeType: 'application/pdf',
      pageCount: 2,
      expected: ['DELIVERY NOTE', 'Order number 58213', 'Received in good condition'],
      expectedEngine: 'ocr',
    },
    {
      name: 'packing-slip.png',
      path: write('packing-slip.png', png!),
      kind: 'image',
      mimeType: 'image/png',
      pageCount: 1,
      expected: ['PACKING SLIP', 'Fragile glassware', 'Handle with care'],
      expectedEngine: 'ocr',
    },
    {
      name: 'shipments.csv',
      path: write(
        'shipments.csv',
        'shipment_id,origin,destination,weight_kg\nS-1001,Rotterdam,Hamburg,1250\nS-1002,Antwerp,Lyon,830\n',
      ),
      kind: 'csv',
      mimeType: 'text/csv',
      pageCount: 1,
      expected: ['shipment_id,origin,destination,weight_kg', 'S-1002,Antwerp,Lyon,830'],
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
      expectedEngine: 'plain',
    },
  ];
}

/** A PNG chunk: length, type, data, CRC over type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A small PNG that declares 40,000 × 40,000 pixels: decoding it would need 1.6 GB. */
function decompressionBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(40_000, 0);
  header.writeUInt32BE(40_000, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  const rows = deflateSync(Buffer.alloc(40_001 * 64));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PDF with the standard security handler whose user password is not empty: readers
 * must ask for the password. Written by hand because pdf-lib cannot encrypt.
 */
function encryptedPdf(): Buffer {
  const hex = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => ((i * 37 + seed) & 0xff).toString(16).padStart(2, '0')).join('');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(32, 11)}> /U <${hex(32, 97)}> /P -4 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex(16, 5)}> <${hex(16, 5)}>] >>\n`;
  body += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** Ten thousand blank pages: over the page limit, refused before any page is read. */
async function tenThousandPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 10_000; i++) doc.addPage(A4);
  return doc.save({ useObjectStreams: true });
}

export async function buildBadInputs(dir: string): Promise<BadInput[]> {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, bytes: Uint8Array | string) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const invoice = await textPdf(INVOICE);
  const [png] = await renderPages(await textPdf(PNG_PAGE), 72);
  return [
    {
      name: 'encrypted.pdf',
      path: write('encrypted.pdf', encryptedPdf()),
      expected: { stage: 'extraction', reason: 'encrypted', message: /password-protected/ },
    },
    {
      name: 'truncated.pdf',
      path: write('truncated.pdf', invoice.subarray(0, Math.floor(invoice.length / 2))),
      expected: { stage: 'extraction', reason: 'malformed', message: /truncated/ },
    },
    {
      name: 'malformed.pdf',
      path: write('malformed.pdf', `%PDF-1.7\n${'this is not a PDF body '.repeat(50)}\n%%EOF\n`),
      expected: { stage: 'extraction', reason: 'malformed', message: /cannot be read/ },
    },
    {
      name: 'bomb.png',
      path: write('bomb.png', decompressionBomb()),
      expected: { stage: 'extraction', reason: 'too_large', message: /40000×40000 pixels/ },
    },
    {
      name: 'ten-thousand-pages.pdf',
      path: write('ten-thousand-pages.pdf', await tenThousandPages()),
      expected: { stage: 'extraction', reason: 'too_many_pages', message: /has 10000 pages; the limit is 2000/ },
    },
    { name: 'invoice.pdf', path: write('png-named-invoice.pdf', png!), expected: { stage: 'upload', status: 400 } },
    { name: 'empty.txt', path: write('empty.txt', ''), expected: { stage: 'upload', status: 400 } },
  ];
}
