import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { csvRecord } from '../../text/csv-record.ts';
import { readXlsxSheets } from '../../text/xlsx-sheets.ts';
import { IngestError } from './csv-to-parquet.ts';

/** One CSV file to make a table of: the document itself, or one sheet of a workbook written out as CSV. */
export interface TableSource {
  /** The sheet's name; null for a CSV or TSV document. */
  sheetName: string | null;
  path: string;
  /** `rfc4180` for files written here (comma, double quotes); `sniff` lets DuckDB find out. */
  dialect: 'sniff' | 'rfc4180';
}

const HEAD_BYTES = 64 * 1024;

async function headOf(path: string): Promise<{ head: Buffer; size: number }> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const buffer = Buffer.alloc(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return { head: buffer.subarray(0, bytesRead), size };
  } finally {
    await file.close();
  }
}

/** UTF-8 without NULs; when the head is not the whole file, up to 3 bytes at its end may be a character cut in two. */
function isUtf8Text(head: Buffer, whole: boolean): boolean {
  if (head.includes(0)) return false;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= (whole ? 0 : 3) && cut <= head.length; cut++) {
    try {
      decoder.decode(head.subarray(0, head.length - cut));
      return true;
    } catch {
      // a character may be cut: try a byte shorter
    }
  }
  return false;
}

/** A CSV or TSV document as the table's source, refused when empty or not text at all. */
export async function csvSource(path: string, documentName: string): Promise<TableSource[]> {
  const { head, size } = await headOf(path);
  if (size === 0) throw new IngestError(`"${documentName}" is empty (0 bytes); upload a CSV file with a header row and data.`);
  if (!isUtf8Text(head, size === head.length)) {
    throw new IngestError(
      `"${documentName}" is not a text CSV (it holds binary data or is not UTF-8); export it from its program as CSV (UTF-8) and upload that.`,
    );
  }
  if (
    size === head.length &&
    head
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim() === ''
  ) {
    throw new IngestError(`"${documentName}" holds only blank lines; upload a CSV file with a header row and data.`);
  }
  return [{ sheetName: null, path, dialect: 'sniff' }];
}

async function write(stream: WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function closed(stream: WriteStream): Promise<void> {
  stream.end();
  await once(stream, 'close');
}

/** Every worksheet that holds a row, written out as CSV next to the workbook; blank sheets make no table. */
export async function xlsxSources(path: string, documentName: string, workDir: string): Promise<TableSource[]> {
  const sources: TableSource[] = [];
  try {
    for await (const sheet of readXlsxSheets(createReadStream(path))) {
      const sheetPath = join(workDir, `sheet-${sources.length + 1}.csv`);
      const out = createWriteStream(sheetPath);
      let rows = 0;
      try {
        for await (const row of sheet.rows) {
          await write(out, csvRecord(row));
          rows++;
        }
      } finally {
        await closed(out);
      }
      if (rows > 0) sources.push({ sheetName: sheet.name, path: sheetPath, dialect: 'rfc4180' });
    }
  } catch (error) {
    throw new IngestError(
      `"${documentName}" is not a readable XLSX workbook (${error instanceof Error ? error.message : String(error)}); open it in a spreadsheet program, save it again as .xlsx and upload that.`,
      { cause: error },
    );
  }
  if (sources.length === 0)
    throw new IngestError(`"${documentName}" has no worksheet with data; fill a sheet and upload it again.`);
  return sources;
}
