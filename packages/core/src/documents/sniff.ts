import { fileTypeFromBuffer } from 'file-type';
import { invalidInput } from '../errors.ts';
import type { DocumentKind } from '../text/types.ts';

export interface SniffedType {
  kind: DocumentKind;
  mimeType: string;
}

/** How many leading bytes sniffing needs. */
export const SNIFF_BYTES = 64 * 1024;

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const BINARY_TYPES: Record<string, SniffedType> = {
  'application/pdf': { kind: 'pdf', mimeType: 'application/pdf' },
  'image/png': { kind: 'image', mimeType: 'image/png' },
  'image/jpeg': { kind: 'image', mimeType: 'image/jpeg' },
  'image/tiff': { kind: 'image', mimeType: 'image/tiff' },
  'image/webp': { kind: 'image', mimeType: 'image/webp' },
  [XLSX_MIME]: { kind: 'xlsx', mimeType: XLSX_MIME },
};

const TEXT_TYPES: Record<'text' | 'markdown' | 'csv', SniffedType> = {
  text: { kind: 'text', mimeType: 'text/plain' },
  markdown: { kind: 'markdown', mimeType: 'text/markdown' },
  csv: { kind: 'csv', mimeType: 'text/csv' },
};

const EXTENSION_KIND: Record<string, DocumentKind | 'text-family'> = {
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  tif: 'image',
  tiff: 'image',
  webp: 'image',
  txt: 'text-family',
  text: 'text-family',
  md: 'text-family',
  markdown: 'text-family',
  csv: 'text-family',
  tsv: 'text-family',
  xlsx: 'xlsx',
};

const describeKind: Record<DocumentKind, string> = {
  pdf: 'a PDF',
  image: 'an image',
  text: 'plain text',
  markdown: 'Markdown',
  csv: 'CSV',
  xlsx: 'an XLSX workbook',
};

function extensionOf(name: string): string | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(name);
  return match?.[1]?.toLowerCase();
}

/** True when the bytes decode as UTF-8 text (a multi-byte character cut at the end is fine). */
function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Drop up to 3 trailing bytes that may be the start of a cut character.
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    try {
      decoder.decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // try with one byte fewer
    }
  }
  return false;
}

function looksLikeCsv(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20);
  if (lines.length < 2) return false;
  for (const delimiter of [',', ';', '\t']) {
    const counts = lines.map((l) => l.split(delimiter).length - 1);
    if (counts[0]! > 0 && counts.every((c) => c === counts[0])) return true;
  }
  return false;
}

/**
 * An OOXML workbook whose content-types entry lies past the sniffed bytes: a ZIP with an entry under
 * `xl/` (a local file header is 30 bytes, then the entry's name).
 */
function looksLikeWorkbookZip(head: Uint8Array): boolean {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const localFileHeader = Buffer.from('PK\x03\x04', 'latin1');
  for (let at = bytes.indexOf(localFileHeader); at !== -1; at = bytes.indexOf(localFileHeader, at + 4)) {
    if (bytes.toString('latin1', at + 30, at + 33) === 'xl/') return true;
  }
  return false;
}

function looksLikeMarkdown(text: string): boolean {
  return /^(#{1,6} |[-*+] |\d+\. |```|> |\|.*\|\s*$)/m.test(text);
}

/**
 * Decides what a file is from its first bytes, and refuses a file whose name promises
 * something else (an "invoice.pdf" that is a PNG is a mistake worth telling).
 */
export async function sniffDocumentType(name: string, head: Uint8Array): Promise<SniffedType> {
  if (head.length === 0) throw invalidInput(`"${name}" is empty; upload a file with content.`);
  const detected = await fileTypeFromBuffer(head);
  let sniffed: SniffedType | undefined = detected ? BINARY_TYPES[detected.mime] : undefined;
  if (detected?.mime === 'application/zip' && looksLikeWorkbookZip(head)) sniffed = BINARY_TYPES[XLSX_MIME];
  if (!sniffed && !detected && looksLikeText(head)) {
    const text = new TextDecoder().decode(head);
    const ext = extensionOf(name);
    if (ext === 'csv' || ext === 'tsv' || (ext !== 'md' && ext !== 'markdown' && looksLikeCsv(text))) sniffed = TEXT_TYPES.csv;
    else if (ext === 'md' || ext === 'markdown' || looksLikeMarkdown(text)) sniffed = TEXT_TYPES.markdown;
    else sniffed = TEXT_TYPES.text;
  }
  if (!sniffed) {
    const what = detected ? `${detected.mime} content` : 'content of an unknown type';
    const legacyExcel = extensionOf(name) === 'xls' ? ' Old .xls workbooks are not read: save it as .xlsx.' : '';
    throw invalidInput(
      `"${name}" has ${what}; upload a PDF, PNG, JPEG, TIFF or WebP image, a text, Markdown, CSV or TSV file, or an XLSX workbook.${legacyExcel}`,
    );
  }
  const ext = extensionOf(name);
  const promised = ext ? EXTENSION_KIND[ext] : undefined;
  const isTextKind = sniffed.kind === 'text' || sniffed.kind === 'markdown' || sniffed.kind === 'csv';
  const matches = promised === undefined || promised === sniffed.kind || (promised === 'text-family' && isTextKind);
  if (!matches) {
    const expected = promised === 'text-family' ? 'a text file' : describeKind[promised as DocumentKind];
    throw invalidInput(
      `"${name}" is named like ${expected} but its content is ${describeKind[sniffed.kind]}; rename it or upload the intended file.`,
    );
  }
  return sniffed;
}

/**
 * A file name as stored, for every way a name arrives (JSON and multipart uploads, renames):
 * path separators, `.`, `..` and control characters are refused rather than silently reduced,
 * so that what the person sees is what they sent.
 */
export function checkDocumentName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw invalidInput('A document name must not be empty.');
  if (trimmed === '.' || trimmed === '..') {
    throw invalidInput(`The document name "${trimmed}" is not a file name; name the file after what it holds.`);
  }
  if (trimmed.length > 255) throw invalidInput(`The document name "${trimmed.slice(0, 40)}…" is longer than 255 characters.`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[/\\\u0000-\u001f\u007f]/.test(trimmed)) {
    throw invalidInput(
      `The document name ${JSON.stringify(trimmed)} contains a path separator or a control character; rename the file.`,
    );
  }
  return trimmed;
}
