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

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
