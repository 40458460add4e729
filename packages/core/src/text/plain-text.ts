import { type PageText, type PositionedText, type TextEngine, type TextExtraction, TextExtractionError } from './types.ts';

const linesOf = (text: string) => (text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n'));

/** Whether a page's positioned items follow from its text (and so are not stored; see plainTextItems). */
export const itemsFollowFromText = (engine: TextEngine): boolean => engine === 'plain';

/**
 * A plain page's positioned items: its lines (x in characters, y in lines), so that every kind
 * of document offers positions. They follow from the text alone, so they are not stored: a
 * large CSV would otherwise be stored twice over (see storedPages).
 */
export function plainTextItems(text: string): PositionedText[] {
  return linesOf(text).flatMap((line, y) => (line.trim() === '' ? [] : [{ text: line, x: 0, y, width: line.length, height: 1 }]));
}

/** Text as one page, its lines its items. */
export function plainTextPage(decoded: string, page: number): PageText {
  const text = decoded.replace(/\r\n?/g, '\n');
  const lines = linesOf(text);
  // Not Math.max(...lengths): a long CSV has more lines than a function call takes arguments.
  const width = lines.reduce((longest, line) => Math.max(longest, line.length), 0);
  return { page, text, width, height: lines.length, engine: 'plain', items: plainTextItems(text) };
}

/** A text, Markdown or CSV file as one page. */
export function extractPlainText(bytes: Uint8Array): TextExtraction {
  let decoded: string;
  try {
    // `ignoreBOM: false` means the BOM is consumed, not kept in the text.
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new TextExtractionError('malformed', 'The file is not valid UTF-8 text; save it as UTF-8 and upload it again.');
  }
  return { pageCount: 1, pages: [plainTextPage(decoded, 1)] };
}
