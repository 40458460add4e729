import { getDocumentPageTexts } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import { documentIdField, documentIdOf } from './shared.ts';

export const DEFAULT_OCR_CHARS = 8000;
export const MAX_OCR_CHARS = 50_000;

const pageField = (what: string) => z.number().int().min(1).max(100_000).optional().describe(what);

export const getOcrText = defineTool({
  name: 'get_ocr_text',
  description:
    'Read the extracted (OCR) text of a document: all pages, or a page range. Multi-page text is marked with "[page N]". ' +
    `Returns at most max_chars characters (default ${DEFAULT_OCR_CHARS}); when the text is cut, the result says so and gives the start_char to read on from.`,
  access: 'read_only',
  input: z.strictObject({
    document_id: documentIdField,
    page_start: pageField('First page to read, from 1; default 1'),
    page_end: pageField('Last page to read (inclusive); default the last page'),
    start_char: z
      .number()
      .int()
      .min(0)
      .max(100_000_000)
      .optional()
      .describe('Character offset in the selected text to start from; use the next_start_char of a cut result'),
    max_chars: z
      .number()
      .int()
      .min(100)
      .max(MAX_OCR_CHARS)
      .optional()
      .describe(`How many characters to return at most, 100-${MAX_OCR_CHARS}; default ${DEFAULT_OCR_CHARS}`),
  }),
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    const { document, pages } = await getDocumentPageTexts(context.services.db, context.access.orgId, documentId);
    const pageCount = pages.length;
    if (pageCount === 0) return { document_id: documentId, page_count: 0, text: '', note: 'The document has no text.' };
    const first = input.page_start ?? 1;
    const last = Math.min(input.page_end ?? pageCount, pageCount);
    if (first > pageCount) {
      return { error: `page_start ${first} is out of range; document ${documentId} has ${pageCount} page(s), numbered from 1.` };
    }
    if (last < first) return { error: `page_end ${last} is before page_start ${first}.` };
    const selected = pages.filter((p) => p.page >= first && p.page <= last);
    const full =
      pageCount > 1 ? selected.map((p) => `[page ${p.page}]\n${p.text}`).join('\n\n') : selected.map((p) => p.text).join('');
    const start = Math.min(input.start_char ?? 0, full.length);
    const max = input.max_chars ?? DEFAULT_OCR_CHARS;
    const text = full.slice(start, start + max);
    const end = start + text.length;
    const result: Record<string, unknown> = {
      document_id: documentId,
      document_name: document.name,
      page_count: pageCount,
      pages: first === last ? `${first}` : `${first}-${last}`,
      total_chars: full.length,
      text,
    };
    if (start > 0) result.start_char = start;
    if (end < full.length) {
      result.truncated = true;
      result.next_start_char = end;
      result.note = `Text cut at character ${end} of ${full.length}. Call get_ocr_text again with start_char=${end} (same pages) to read on, or choose pages with page_start/page_end.`;
    }
    return result;
  },
});
