/** A field needs quotes when it holds the delimiter, a quote or a line break, or would lose edge spaces to a trimming reader. */
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV record as RFC 4180 writes it: comma-separated, quoted where needed with quotes doubled, CRLF at the end. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map((f) => (NEEDS_QUOTES.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(',')}\r\n`;
}
