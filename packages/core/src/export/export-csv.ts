import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { format } from '@fast-csv/format';
import type { ExportCell } from './export-cells.ts';

/**
 * RFC 4180 CSV (CRLF, fields with commas, quotes or line breaks quoted) by fast-csv, with a BOM
 * so that spreadsheet programs read it as UTF-8. Rows are written as their pages arrive, waiting
 * whenever the reader is behind.
 */
export function csvStream(header: string[], pages: AsyncIterable<ExportCell[][]>): Readable {
  const csv = format<ExportCell[], ExportCell[]>({ writeBOM: true, rowDelimiter: '\r\n', includeEndRowDelimiter: true });
  const write = async () => {
    csv.write(header);
    for await (const page of pages) {
      for (const row of page) csv.write(row);
      if (csv.writableNeedDrain) await Promise.race([once(csv, 'drain'), once(csv, 'close')]);
      if (csv.destroyed) return;
    }
    csv.end();
  };
  write().catch((error: unknown) => csv.destroy(error instanceof Error ? error : new Error(String(error))));
  return csv;
}
