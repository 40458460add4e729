import { inflateSync } from 'node:zlib';

/**
 * Whether a PDF may turn a page a quarter (a /Rotate of 90 or 270), told from its bytes without
 * parsing it. pdftotext -bbox prints a page's unturned size with its words placed on the turned
 * page, so a quarter turn must be known to store the page's size, and only poppler's pdfinfo
 * tells it: a second process for every document, about a tenth of a one-page PDF's read.
 *
 * A rotation can be written only in a page or page-tree dictionary, which lies either in the
 * file's own bytes or in a compressed object stream; this looks at both. "No" is answered only
 * when every rotation found there is a multiple of 180. Anything it cannot see through (an
 * indirect or odd value, an object stream behind another filter, an encrypted file, a file past
 * 8 MB) answers "maybe", and pdfinfo is asked. A chance match inside compressed content can only make it ask.
 */
export function mayTurnPagesAQuarter(bytes: Uint8Array): boolean {
  if (bytes.byteLength > MAX_LOOKED_AT_BYTES) return true;
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (nameEnds(pdf, 'Encrypt').length > 0) return true;
  if (turnsAQuarter(pdf)) return true;
  return nameEnds(pdf, 'ObjStm').some((end) => {
    const objects = objectStreamAt(pdf, end);
    return objects === undefined || turnsAQuarter(objects);
  });
}

/**
 * The look costs the server's thread about 1 ms a MB (its searches read the bytes a few times);
 * past this size pdfinfo's few milliseconds in a process of its own are the cheaper way, and a
 * small part of reading so large a PDF.
 */
const MAX_LOOKED_AT_BYTES = 8 * 1024 * 1024;

/** An object stream inflating beyond this is no PDF a person made (they hold a few hundred KB at most). */
const MAX_OBJECT_STREAM_BYTES = 8 * 1024 * 1024;

const bytesOf = (characters: string) => new Set(Array.from(characters, (character) => character.charCodeAt(0)));
const WHITESPACE = bytesOf('\0\t\n\f\r ');
/** What ends a name or a number: whitespace, a delimiter, or the end of the bytes. */
const TOKEN_ENDS = bytesOf('\0\t\n\f\r ()<>[]{}/%');
const endsToken = (byte: number | undefined) => byte === undefined || TOKEN_ENDS.has(byte);
/** The same in a regular expression: what follows is not a name's or a number's next character. */
const TOKEN_END = String.raw`(?![^\s()<>[\]{}/%])`;

function skipWhitespace(pdf: Buffer, at: number): number {
  while (WHITESPACE.has(pdf[at] ?? -1)) at++;
  return at;
}

/** A name whose first character is escaped. (Buffers: a string needle is encoded again at every search.) */
const ESCAPED_NAME = Buffer.from('/#', 'latin1');

/**
 * Where each name `/name` ends, however it is spelt: a name's characters may be written as #
 * and two hex digits (`/Rot#61te` is `/Rotate`), which poppler reads as the same name.
 */
function nameEnds(pdf: Buffer, name: string): number[] {
  const ends: number[] = [];
  for (const start of [Buffer.from(`/${name[0]}`, 'latin1'), ESCAPED_NAME]) {
    for (let at = pdf.indexOf(start); at !== -1; at = pdf.indexOf(start, at + 1)) {
      const end = nameEnd(pdf, at + 1, name);
      if (end !== -1) ends.push(end);
    }
  }
  return ends;
}

function nameEnd(pdf: Buffer, at: number, name: string): number {
  for (let i = 0; i < name.length; i++) {
    const expected = name.charCodeAt(i);
    if (pdf[at] === expected) at++;
    else if (pdf[at] === 0x23 && hexByte(pdf, at + 1) === expected) at += 3;
    else return -1;
  }
  return endsToken(pdf[at]) ? at : -1;
}

/** The byte written as two hex digits at `at`, or -1. */
function hexByte(pdf: Buffer, at: number): number {
  const digits = pdf.toString('latin1', at, at + 2);
  return /^[0-9a-fA-F]{2}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
}

/** `7 0 R` after `/Rotate`: the value is another object's. */
const REFERENCE = new RegExp(String.raw`^\s+\d+\s+R` + TOKEN_END);

/** True when a /Rotate in these bytes may be a quarter turn: a value not plainly a multiple of 180. */
function turnsAQuarter(pdf: Buffer): boolean {
  return nameEnds(pdf, 'Rotate').some((end) => {
    const at = skipWhitespace(pdf, end);
    const number = /^[+-]?\d{1,9}/.exec(pdf.toString('latin1', at, at + 10))?.[0];
    if (number === undefined || !endsToken(pdf[at + number.length])) return true;
    const reference = REFERENCE.test(pdf.toString('latin1', at + number.length, at + number.length + 24));
    return reference || Number(number) % 180 !== 0;
  });
}

/** `/Filter /FlateDecode` or `/Filter [/FlateDecode]`: the one filter object streams are written with. */
const FLATE_ONLY = new RegExp(String.raw`\/Filter\s*(?:\/FlateDecode|\[\s*\/FlateDecode\s*\])` + TOKEN_END);

/**
 * The inflated objects of the object stream whose dictionary names `/ObjStm` just before `end`,
 * or undefined when they cannot be read here (another filter, decode parameters, bad data).
 */
function objectStreamAt(pdf: Buffer, end: number): Buffer | undefined {
  const keyword = pdf.indexOf('stream', end, 'latin1');
  if (keyword === -1) return undefined;
  const dictionary = pdf.toString('latin1', Math.max(0, pdf.lastIndexOf('obj', end, 'latin1')), keyword);
  // An escaped name could hide a filter or its parameters from the plain look below.
  if (dictionary.includes('#') || dictionary.includes('/DecodeParms')) return undefined;
  let data = keyword + 'stream'.length;
  if (pdf[data] === 0x0d) data++;
  if (pdf[data] === 0x0a) data++;
  const close = pdf.indexOf('endstream', data, 'latin1');
  const raw = pdf.subarray(data, close === -1 ? pdf.length : close);
  if (!dictionary.includes('/Filter')) return raw;
  if (!FLATE_ONLY.test(dictionary)) return undefined;
  try {
    // Inflating stops at the end of the compressed data, so a /Length is not needed.
    return inflateSync(raw, { maxOutputLength: MAX_OBJECT_STREAM_BYTES });
  } catch {
    return undefined;
  }
}
