import type { Column } from '../api/datasets';
import { cellText } from './columnValues';
import { zipStored } from './zipStored';

/** A query's result as files to download, made in the browser from the rows it already has. */

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180: a header row, comma-separated, fields with commas, quotes or line breaks quoted, CRLF. */
export function toCsv(columns: Column[], rows: unknown[][]): string {
  const lines = [columns.map((column) => csvField(column.name)), ...rows.map((row) => row.map((v) => csvField(cellText(v))))];
  return `${lines.map((fields) => fields.join(',')).join('\r\n')}\r\n`;
}

// XML 1.0 has no way to write most control characters, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

const xmlText = (text: string) =>
  text
    .replace(XML_INVALID, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** A, B, ..., Z, AA, AB, ...: a cell reference's column. */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Numbers and booleans as such; everything else as text written into the cell, never as a formula. */
function xlsxCell(value: unknown, ref: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(cellText(value))}</t></is></c>`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook of one sheet, "Result": the header row, then the rows. Dates stay ISO text, as the server gives them. */
export function toXlsx(columns: Column[], rows: unknown[][]): Blob {
  const sheetRows = [columns.map((column) => column.name), ...rows].map(
    (row, r) => `<row r="${r + 1}">${row.map((value, c) => xlsxCell(value, `${columnLetters(c)}${r + 1}`)).join('')}</row>`,
  );
  const zip = zipStored([
    {
      path: '[Content_Types].xml',
      text: `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    },
    {
      path: '_rels/.rels',
      text: `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      path: 'xl/workbook.xml',
      text: `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${DOC_RELS}"><sheets><sheet name="Result" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      path: 'xl/_rels/workbook.xml.rels',
      text: `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      path: 'xl/worksheets/sheet1.xml',
      text: `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`,
    },
  ]);
  return new Blob([zip], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/** Hands the file to the browser's downloads. */
export function saveFile(blob: Blob, fileName: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(link.href);
}
