import { Readable } from 'node:stream';
import { csvRecord } from './csv-record.ts';
import { plainTextPage } from './plain-text.ts';
import { type PageText, type TextExtraction, TextExtractionError } from './types.ts';
import { readXlsxSheets } from './xlsx-sheets.ts';

/**
 * An XLSX workbook's text: one page per worksheet, in the workbook's order, each its sheet's name on
 * a first line and then its rows as CSV, as a CSV document's text is its lines.
 */
export async function extractXlsxText(bytes: Uint8Array): Promise<TextExtraction> {
  const pages: PageText[] = [];
  try {
    for await (const sheet of readXlsxSheets(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]))) {
      let text = `# Sheet: ${sheet.name}\n`;
      for await (const row of sheet.rows) text += csvRecord(row);
      pages.push(plainTextPage(text, pages.length + 1));
    }
  } catch (error) {
    throw new TextExtractionError(
      'malformed',
      `The file is not a readable XLSX workbook (${error instanceof Error ? error.message : String(error)}); open it in a spreadsheet program, save it again as .xlsx and upload it again.`,
      { cause: error },
    );
  }
  if (pages.length === 0) {
    throw new TextExtractionError('malformed', 'The workbook has no worksheet; add a sheet with data and upload it again.');
  }
  return { pageCount: pages.length, pages };
}
