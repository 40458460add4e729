import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { ExportCell } from './export-cells.ts';

export interface ExportSheet {
  name: string;
  header: string[];
  /** Read when the sheet is written: sheets are written one after the other, each streamed. */
  pages: () => AsyncIterable<ExportCell[][]>;
}

/**
 * An XLSX workbook by exceljs's streaming writer: each row is committed as it is added (no shared
 * strings, no styles, so nothing grows with the rows), and a page is only read once the reader
 * has taken the previous ones.
 */
export function xlsxStream(sheets: ExportSheet[]): Readable {
  const out = new PassThrough();
  const write = async () => {
    // Loaded with the first workbook, not with every process (about 0.2 s).
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    for (const sheet of sheets) {
      const worksheet = workbook.addWorksheet(sheet.name);
      worksheet.addRow(sheet.header).commit();
      for await (const page of sheet.pages()) {
        for (const row of page) worksheet.addRow(row).commit();
        if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), once(out, 'close')]);
        if (out.destroyed) return;
      }
      worksheet.commit();
    }
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
