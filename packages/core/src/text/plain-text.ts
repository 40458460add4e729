import { type TextExtraction, TextExtractionError } from './types.ts';

/**
 * A text, Markdown or CSV file as one page. Its lines are its positioned items (x in
 * characters, y in lines), so every document kind offers positions.
 */
export function extractPlainText(bytes: Uint8Array): TextExtraction {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new TextExtractionError('malformed', 'The file is not valid UTF-8 text; save it as UTF-8 and upload it again.');
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const items = lines.flatMap((line, y) => (line.trim() === '' ? [] : [{ text: line, x: 0, y, width: line.length, height: 1 }]));
  return {
    pageCount: 1,
    pages: [
      {
        page: 1,
        text,
        width: Math.max(0, ...lines.map((l) => l.length)),
        height: lines.length,
        engine: 'plain',
        items,
      },
    ],
  };
}
