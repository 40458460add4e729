import { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import { promptRevisionOf } from '../prompts/prompts.ts';
import { headerOf, itemHeaderOf, itemRowsOf, rowOf } from './export-cells.ts';
import { csvStream } from './export-csv.ts';
import { jsonChunks } from './export-json.ts';
import { exportLayoutOf } from './export-layout.ts';
import { type ExportFilter, exportedResults } from './export-query.ts';
import { xlsxStream } from './export-xlsx.ts';

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
};

export interface PromptExport {
  fileName: string;
  contentType: string;
  /** The file, made as it is read: a page of results at a time. */
  content: Readable;
}

/** A file name of letters, digits, `.`, `_` and `-` only, from the prompt's name. */
export function exportFileName(promptName: string, format: ExportFormat): string {
  const base = promptName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 80);
  return `${base || 'prompt'}-results.${format}`;
}

/**
 * A prompt's results over its documents as a file, one row (one JSON object) per document, in
 * document id order: CSV with nested objects as dotted columns and lists as JSON text; XLSX with
 * the same `results` sheet and an `items` sheet, a row per list item; JSON as stored. Another
 * organization's prompt, or a revision of another prompt, is not found.
 */
export async function exportPromptResults(
  db: Db,
  orgId: string,
  promptId: string,
  format: ExportFormat,
  filter: ExportFilter = {},
): Promise<PromptExport> {
  // The latest revision carries the prompt's name; a revision asked for must be one of the prompt's.
  const prompt = await promptRevisionOf(db, orgId, promptId);
  if (filter.promptRevid) await promptRevisionOf(db, orgId, promptId, filter.promptRevid);
  const pages = () => exportedResults(db, orgId, promptId, filter);
  const file = { fileName: exportFileName(prompt.name, format), contentType: CONTENT_TYPES[format] };
  if (format === 'json') return { ...file, content: Readable.from(jsonChunks(pages())) };
  const layout = await exportLayoutOf(db, orgId, promptId, filter.promptRevid ?? prompt.promptRevid, filter);
  async function* rows() {
    for await (const page of pages()) yield page.map((result) => rowOf(result, layout));
  }
  if (format === 'csv') return { ...file, content: csvStream(headerOf(layout), rows()) };
  async function* items() {
    for await (const page of pages()) {
      yield page.flatMap((result) => layout.lists.flatMap((list) => itemRowsOf(result, list, layout)));
    }
  }
  return {
    ...file,
    content: xlsxStream([
      { name: 'results', header: headerOf(layout), pages: rows },
      { name: 'items', header: itemHeaderOf(layout), pages: items },
    ]),
  };
}
