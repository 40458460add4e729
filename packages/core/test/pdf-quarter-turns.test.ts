import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { mayTurnPagesAQuarter } from '../src/text/pdf-quarter-turns.ts';

/** The invoices with ground truth live beside the repository: ../shared/data/invoices (or DOCAGENT_INVOICES_DIR). */
const INVOICE_DOCS = join(
  process.env.DOCAGENT_INVOICES_DIR ?? resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'data', 'invoices'),
  'docs',
);
const NO_INVOICES = existsSync(INVOICE_DOCS) ? false : `the invoices are not at ${INVOICE_DOCS} (set DOCAGENT_INVOICES_DIR)`;

const bytes = (...parts: (string | Uint8Array)[]) =>
  new Uint8Array(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : part))));

/** A two-page PDF made by pdf-lib, its second page turned by `turn` degrees (none when undefined). */
async function pdfWithTurn(turn: number | undefined, useObjectStreams: boolean): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < 2; i++) pdf.addPage([600, 400]).drawText(`Page ${i + 1}`, { x: 50, y: 300, size: 14, font });
  if (turn !== undefined) pdf.getPage(1).setRotation(degrees(turn));
  return pdf.save({ useObjectStreams });
}

/** An object stream around `objects`, written with `dictionary` and its data as `encode` makes it. */
const objectStream = (
  objects: string,
  dictionary = '/Filter /FlateDecode',
  encode: (data: Buffer) => Uint8Array = (data) => deflateSync(data),
) =>
  bytes(
    `7 0 obj\n<< /Type /ObjStm /N 1 /First 4 ${dictionary} >>\nstream\n`,
    encode(Buffer.from(objects)),
    '\nendstream\nendobj\n',
  );

describe('whether a PDF may turn a page a quarter', () => {
  test('pdf-lib PDFs, with and without object streams: only a turn of 90 or 270 degrees counts', async () => {
    for (const useObjectStreams of [false, true]) {
      const cases: [number | undefined, boolean][] = [
        [undefined, false],
        [0, false],
        [180, false],
        [90, true],
        [270, true],
        [-90, true],
      ];
      for (const [turn, expected] of cases) {
        const pdf = await pdfWithTurn(turn, useObjectStreams);
        assert.equal(mayTurnPagesAQuarter(pdf), expected, `turn ${turn}, object streams ${useObjectStreams}`);
      }
    }
  });

  test('a rotation written with escaped name characters, or as a reference, is seen', () => {
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rot#61te 90 >>')), true);
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /#52#6F#74#61#74#65 270 >>')), true);
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rot#61te 180 >>')), false);
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rotate 180 0 R >>')), true, 'the value is elsewhere');
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rotate 90.0 >>')), true, 'not an integer');
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rotate/Foo >>')), true, 'no number');
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rotate\n0/Parent 2 0 R >>')), false);
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /RotateX 90 /Rot 90 >>')), false, 'other names');
  });

  test('object streams are looked into; what cannot be read there, or a PDF past 8 MB, answers maybe', () => {
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page /Rotate 90 >>')), true);
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page /Rotate 0 >>')), false);
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page /Rotate 90 >>', '/Filter [/FlateDecode]')), true);
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page >>', '/Filter [ /FlateDecode ]')), false);
    const plain = (data: Buffer) => data;
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page /Rotate 90 >>', '', plain)), true, 'unfiltered');
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page >>', '/Filter /LZWDecode')), true, 'another filter');
    assert.equal(
      mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page >>', '/Filter /FlateDecode /DecodeParms << /Predictor 12 >>')),
      true,
    );
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page >>', '/Fil#74er /ASCIIHexDecode')), true, 'escaped');
    const broken = (data: Buffer) => deflateSync(data).subarray(0, 8);
    assert.equal(mayTurnPagesAQuarter(objectStream('3 0 << /Type /Page >>', undefined, broken)), true, 'cut-off data');
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Encrypt 5 0 R >>')), true, 'encrypted');
    const large = Buffer.alloc(9 * 1024 * 1024, ' ');
    assert.equal(mayTurnPagesAQuarter(bytes('<< /Type /Page /Rotate 0 >>', large)), true, 'past 8 MB pdfinfo is asked');
  });

  test('the invoices beside the repository turn no page', { skip: NO_INVOICES }, () => {
    const files = readdirSync(INVOICE_DOCS).filter((name) => name.endsWith('.pdf'));
    assert.ok(files.length > 0);
    for (const name of files) assert.equal(mayTurnPagesAQuarter(readFileSync(join(INVOICE_DOCS, name))), false, name);
  });
});
