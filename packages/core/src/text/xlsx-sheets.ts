import type { Readable } from 'node:stream';

/** One worksheet, its rows as text fields; read the rows before asking for the next sheet (the file streams). */
export interface XlsxSheet {
  name: string;
  rows: AsyncIterable<string[]>;
}

interface StreamedCell {
  value: unknown;
  numFmt?: string;
}

interface StreamedRow {
  eachCell(callback: (cell: StreamedCell, column: number) => void): void;
}

/** What exceljs's streaming reader has that its typings leave out. */
interface StreamedWorkbook extends AsyncIterable<AsyncIterable<StreamedRow> & { name: string }> {
  properties?: { model?: { date1904?: boolean } };
}

const DAY_MS = 86_400_000;
/** Days from Excel's day 0 (1899-12-30 in the 1900 system, 1904-01-01 in the 1904 one) to 1970-01-01. */
const EPOCH_OFFSET_DAYS = { 1900: 25_569, 1904: 24_107 };

/** True for number formats that show a date or a time: d, m, y, h or s outside quoted text and [..] sections. */
function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const bare = format.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** A date as ISO 8601: the day alone when it has no time of day (spreadsheet dates have no time zone). */
function isoDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return iso.slice(0, 10);
  return iso.replace(/\.000Z$|Z$/, '');
}

/**
 * A cell as text: formulas as their cached result, dates as ISO 8601, rich text and hyperlinks as
 * their text, error values (#N/A, #DIV/0!) empty. A cell covered by a merge holds nothing in the
 * file, so a merged range reads as its top-left value with the others empty.
 */
function cellText(cell: StreamedCell, date1904: boolean): string {
  let value = cell.value;
  if (value && typeof value === 'object' && 'result' in value) value = (value as { result?: unknown }).result;
  else if (value && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) return '';
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return isoDate(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '';
    if (isDateFormat(cell.numFmt)) {
      const offset = EPOCH_OFFSET_DAYS[date1904 ? 1904 : 1900];
      return isoDate(new Date(Math.round((value - offset) * DAY_MS)));
    }
    return String(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return String(value);
  if (typeof value === 'object') {
    if ('richText' in value) return (value as { richText: Array<{ text?: string }> }).richText.map((r) => r.text ?? '').join('');
    if ('text' in value) return String((value as { text: unknown }).text ?? '');
    if ('error' in value) return '';
  }
  return String(value);
}

async function* rowsOf(sheet: AsyncIterable<StreamedRow>, date1904: boolean): AsyncGenerator<string[]> {
  for await (const row of sheet) {
    const fields: string[] = [];
    row.eachCell((cell, column) => {
      fields[column - 1] = cellText(cell, date1904);
    });
    // eachCell skips empty cells: the gaps they leave are empty fields.
    const dense = Array.from(fields, (f) => f ?? '');
    if (dense.some((f) => f !== '')) yield dense;
  }
}

/**
 * The worksheets of an XLSX workbook, in the order the file stores them, read as a stream so that
 * a large workbook is never held in memory whole. Blank rows are left out.
 */
export async function* readXlsxSheets(input: Readable): AsyncGenerator<XlsxSheet> {
  // exceljs takes about 0.2 s to load: it loads with the first workbook, not with every process.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles carry the number formats that tell a date from a number.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as StreamedWorkbook;
  for await (const sheet of workbook) {
    yield { name: sheet.name, rows: rowsOf(sheet, workbook.properties?.model?.date1904 === true) };
  }
}
