import type { ResponseFormat } from '../api/schemas';

/** What a new schema starts from: a small, valid example to change rather than a blank page. */
export const starterResponseFormat: ResponseFormat = {
  type: 'json_schema',
  json_schema: {
    name: 'invoice',
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'The invoice number as printed on the document' },
        invoice_date: { type: 'string', format: 'date', description: 'The date of the invoice, as YYYY-MM-DD' },
        total: { type: 'number', description: 'The total amount due, without the currency sign' },
      },
      required: ['invoice_number', 'invoice_date', 'total'],
      additionalProperties: false,
    },
    strict: true,
  },
};

/** An array of plain values (strings, numbers, true, false, null), one per line, as JSON.stringify indents it. */
const PLAIN_ARRAY = /\[\n(?:[ ]*(?:"(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*|true|false|null),?\n)+[ ]*\]/g;
/** Up to this length such an array stays on one line: `"type": ["string", "null"]` reads at a glance. */
const INLINE_ARRAY_MAX = 72;

/** JSON indented by two spaces, short arrays of plain values on one line. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(PLAIN_ARRAY, (array) => {
    const items = array
      .split('\n')
      .slice(1, -1)
      .map((line) => line.trim().replace(/,$/, ''));
    const inline = `[${items.join(', ')}]`;
    return inline.length <= INLINE_ARRAY_MAX ? inline : array;
  });
}
