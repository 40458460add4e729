/**
 * Characters PostgreSQL cannot store: NUL in text (and "\u0000" in jsonb), and UTF-16 surrogates
 * without their other half, which are no Unicode character at all (jsonb refuses their escapes).
 * A PDF's text layer or an error message may hold them; they carry no meaning a reader would miss.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is one of the characters this removes
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without the characters PostgreSQL refuses, and how many were removed. */
export function storableText(text: string): { text: string; removed: number } {
  let removed = 0;
  const cleaned = text.replace(UNSTORABLE, () => {
    removed += 1;
    return '';
  });
  return { text: cleaned, removed };
}
