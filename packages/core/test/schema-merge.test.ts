import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fieldKey, mergeSightings, strictSchemaOf, validateResponseFormat } from '../src/index.ts';

/** Merging sample documents' fields into one strict schema (no model involved). */

describe('schema inference: the merge', () => {
  test('a field every sample has is required and never null; one only some have may be null', () => {
    const fields = mergeSightings([
      [
        { name: 'Invoice Number', type: 'string', description: 'The invoice number' },
        { name: 'total', type: 'integer', description: 'Total due' },
        { name: 'po_number', type: 'string', description: 'Purchase order' },
      ],
      [
        { name: 'invoice_number', type: 'string', description: '' },
        { name: 'total', type: 'number', description: 'Total' },
      ],
      [
        { name: 'invoiceNumber', type: 'string', description: '' },
        { name: 'total', type: 'string', description: '' },
        { name: 'invoice_number', type: 'string', description: 'repeated in one sample: counted once' },
      ],
    ]);
    assert.deepEqual(
      fields.map((f) => [f.name, f.type, f.presentIn, f.nullable]),
      [
        ['invoice_number', 'string', 3, false],
        ['total', 'string', 3, false],
        ['po_number', 'string', 1, true],
      ],
    );
    assert.equal(fields[0]?.description, 'The invoice number');
  });

  test('numbers widen to number; a list merges the fields of its items; the result is a valid strict schema', () => {
    const fields = mergeSightings([
      [
        { name: 'amount', type: 'integer', description: '' },
        {
          name: 'line_items',
          type: 'list',
          description: 'Rows',
          itemFields: [
            { name: 'description', type: 'string', description: '' },
            { name: 'qty', type: 'integer', description: '' },
          ],
        },
        { name: 'issued', type: 'date', description: 'Issue date' },
      ],
      [
        { name: 'amount', type: 'number', description: '' },
        {
          name: 'line_items',
          type: 'list',
          description: '',
          itemFields: [{ name: 'description', type: 'string', description: '' }],
        },
      ],
    ]);
    assert.equal(fields.find((f) => f.name === 'amount')?.type, 'number');
    const items = fields.find((f) => f.name === 'line_items');
    assert.deepEqual(
      items?.itemFields?.map((f) => [f.name, f.nullable]),
      [
        ['description', false],
        ['qty', true],
      ],
    );
    const format = strictSchemaOf(fields, 'invoice');
    const checked = validateResponseFormat(format);
    assert.ok(checked.valid, JSON.stringify(checked));
    const schema = format.json_schema.schema as { properties: Record<string, { type: unknown; description?: string }> };
    assert.deepEqual(schema.properties.issued, { type: ['string', 'null'], description: 'Issue date (a date, as written)' });
    assert.deepEqual(schema.properties.amount?.type, 'number');
  });

  test('names become lower snake case', () => {
    assert.equal(fieldKey('Invoice Number'), 'invoice_number');
    assert.equal(fieldKey('dueDate'), 'due_date');
    assert.equal(fieldKey('  Montant (€) TTC '), 'montant_ttc');
    assert.equal(fieldKey('Überweisung'), 'uberweisung');
    assert.equal(fieldKey('***'), '');
  });
});
