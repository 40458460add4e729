import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftOfText, draftWithFields } from '../src/schemas/schemaDraft.ts';
import {
  fieldsOf,
  hasNameProblems,
  moved,
  nameProblem,
  newField,
  type SchemaField,
  withFields,
  withType,
} from '../src/schemas/schemaFields.ts';
import { formatJson } from '../src/schemas/starterSchema.ts';

const envelope = (properties: Record<string, unknown>) => ({
  type: 'json_schema',
  json_schema: {
    name: 'invoice',
    schema: {
      type: 'object',
      description: 'One invoice',
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    },
    strict: true,
  },
});

const lineItems = {
  type: 'array',
  description: 'One row per line',
  items: {
    type: 'object',
    properties: {
      description: { type: 'string' },
      amount: { type: ['number', 'null'], description: 'Without the currency' },
    },
    required: ['description', 'amount'],
    additionalProperties: false,
  },
};

const invoice = envelope({
  invoice_number: { type: 'string', description: 'As printed', pattern: '^INV' },
  invoice_date: { type: 'string', format: 'date' },
  due_date: { type: ['string', 'null'], format: 'date' },
  total: { type: 'number', minimum: 0 },
  pages: { type: 'integer' },
  paid: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  amounts: { type: ['array', 'null'], items: { type: 'number' } },
  vendor: {
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
    additionalProperties: false,
  },
  line_items: lineItems,
  currency: { anyOf: [{ type: 'string', enum: ['EUR', 'USD'] }, { type: 'null' }], description: 'ISO code' },
});

function read(value: unknown, previous: SchemaField[] = []): SchemaField[] {
  const result = fieldsOf(value, previous);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.fields;
}

/** A field list without ids, to compare shapes. */
const shape = (fields: SchemaField[]): unknown =>
  fields.map(({ id: _id, fields: sub, ...rest }) => ({ ...rest, fields: shape(sub) }));

test('every field type, description and required flag is read from the schema', () => {
  const fields = read(invoice);
  assert.deepEqual(
    fields.map(({ name, type, required }) => [name, type, required]),
    [
      ['invoice_number', 'string', true],
      ['invoice_date', 'date', true],
      ['due_date', 'date', false],
      ['total', 'number', true],
      ['pages', 'integer', true],
      ['paid', 'boolean', true],
      ['tags', 'string-list', true],
      ['amounts', 'number-list', false],
      ['vendor', 'object', true],
      ['line_items', 'object-list', true],
      ['currency', 'other', true],
    ],
  );
  const items = fields.find((field) => field.name === 'line_items');
  assert.equal(items?.description, 'One row per line');
  assert.deepEqual(shape(items?.fields ?? []), [
    { name: 'description', type: 'string', description: '', required: true, kept: {}, fields: [] },
    { name: 'amount', type: 'number', description: 'Without the currency', required: false, kept: {}, fields: [] },
  ]);
  assert.deepEqual(fields[0]?.kept, { pattern: '^INV' }, 'keywords the builder has no control for are kept');
});

test('schema → fields → schema gives the same response format, keywords it does not edit included', () => {
  assert.deepEqual(withFields(invoice, read(invoice)), invoice);
});

test('a field edited in the builder is written back in the strict shape', () => {
  const fields = read(envelope({ total: { type: 'number' } }));
  const [total] = fields;
  assert.ok(total);
  const optionalText = { ...withType(total, 'string'), description: 'The total as printed', required: false };
  const table = withType(newField(fields), 'object-list');
  assert.deepEqual(table.fields.length, 1, 'a new list of objects starts with one column to name');
  const written = withFields(invoice, [optionalText, { ...table, name: 'lines' }]);
  assert.deepEqual((written.json_schema as { schema: unknown }).schema, {
    type: 'object',
    description: 'One invoice',
    properties: {
      total: { type: ['string', 'null'], description: 'The total as printed' },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: { field_1: { type: 'string' } },
          required: ['field_1'],
          additionalProperties: false,
        },
      },
    },
    required: ['total', 'lines'],
    additionalProperties: false,
  });
});

test('changing the type drops the old keywords, and sub-fields stay between an object and a list of objects', () => {
  const [, , , total, , , , , vendor] = read(invoice);
  assert.ok(total && vendor);
  assert.deepEqual(total.kept, { minimum: 0 });
  assert.deepEqual(withType(total, 'integer').kept, {}, 'minimum goes with the number type');
  assert.deepEqual(withType(vendor, 'object-list').fields, vendor.fields);
  assert.deepEqual(withType(vendor, 'string').fields, []);
});

test('reordering moves one field and keeps the rest in order; the JSON follows', () => {
  const fields = read(invoice).slice(0, 3);
  assert.deepEqual(
    moved(fields, 2, -1).map((field) => field.name),
    ['invoice_number', 'due_date', 'invoice_date'],
  );
  assert.equal(moved(fields, 0, -1), fields, 'moving the first field up changes nothing');
  const written = withFields(invoice, moved(fields, 0, 1)).json_schema as { schema: { properties: object; required: string[] } };
  assert.deepEqual(Object.keys(written.schema.properties), ['invoice_date', 'invoice_number', 'due_date']);
  assert.deepEqual(written.schema.required, ['invoice_date', 'invoice_number', 'due_date']);
});

test('names must be given and differ among siblings; the same name may be used at another level', () => {
  const fields = read(envelope({ name: { type: 'string' }, vendor: invoice.json_schema.schema.properties.vendor }));
  assert.equal(hasNameProblems(fields), false);
  const twice = [fields[0] as SchemaField, { ...(fields[1] as SchemaField), name: 'name' }];
  assert.match(nameProblem(twice, 1) ?? '', /also called “name”/);
  assert.match(nameProblem([{ ...(fields[0] as SchemaField), name: ' ' }], 0) ?? '', /Enter a name/);
  const nested = {
    ...(fields[1] as SchemaField),
    fields: [newField([]), newField([])].map((field) => ({ ...field, name: 'x' })),
  };
  assert.equal(hasNameProblems([fields[0] as SchemaField, nested]), true, 'problems are found in sub-fields too');
  assert.equal(newField(fields).name, 'field_3');
});

test('a schema the builder cannot show says why', () => {
  const notFields = fieldsOf({ type: 'json_schema', json_schema: { name: 'x', schema: { type: 'string' } } });
  assert.equal(notFields.ok, false);
  assert.match(notFields.ok ? '' : notFields.reason, /json_schema\.schema\.properties/);
  const broken = fieldsOf(envelope({ total: true }));
  assert.match(broken.ok ? '' : broken.reason, /json_schema\.schema\.properties\.total is not a schema object/);
});

test('the draft: the builder follows readable JSON, waits on broken JSON and rewrites the text on a change', () => {
  const text = JSON.stringify(invoice, null, 2);
  const draft = draftOfText(text);
  assert.equal(draft.builder.status, 'ready');
  const ids = draft.builder.status === 'ready' ? draft.builder.fields.map((field) => field.id) : [];

  const broken = draftOfText(`${text.slice(0, 40)},,`, draft.lastFields);
  assert.equal(broken.text, `${text.slice(0, 40)},,`, 'the typed text is kept as it is');
  assert.equal(broken.builder.status, 'waiting');
  assert.match(
    broken.builder.status === 'waiting' ? broken.builder.reason : '',
    /^Waiting for valid JSON \(line \d+, column \d+: /,
  );
  assert.equal(draftWithFields(broken, []), broken, 'the builder cannot change what it cannot read');

  const again = draftOfText(text.replace('"paid"', '"is_paid"'), broken.lastFields);
  const againIds = again.builder.status === 'ready' ? again.builder.fields.map((field) => field.id) : [];
  assert.deepEqual(
    againIds.filter((id, at) => id !== ids[at]),
    [againIds[5]],
    'fields keep their ids across broken JSON; only the renamed one is new',
  );

  if (again.builder.status !== 'ready') throw new Error('the builder reads the JSON');
  const renamed = again.builder.fields.map((field) => (field.name === 'is_paid' ? { ...field, name: 'paid' } : field));
  assert.deepEqual(JSON.parse(draftWithFields(again, renamed).text), invoice);
  const clash = again.builder.fields.map((field) => (field.name === 'is_paid' ? { ...field, name: 'total' } : field));
  const pending = draftWithFields(again, clash);
  assert.equal(pending.text, again.text, 'a name the JSON cannot hold leaves the text as it was');
  assert.deepEqual(pending.builder.status === 'ready' && pending.builder.fields, clash, 'while the builder shows the edit');
});

test('the JSON is indented, short lists of plain values on one line', () => {
  const value = {
    type: ['string', 'null'],
    tricky: ['a,"', 'b]'],
    items: [{ a: 1 }],
    long: Array.from({ length: 12 }, (_, i) => `field_${i}`),
  };
  const text = formatJson(value);
  assert.match(text, /"type": \["string", "null"\]/);
  assert.match(text, /"tricky": \["a,\\"", "b\]"\]/);
  assert.match(text, /"long": \[\n {4}"field_0",/, 'a long list keeps one item per line');
  assert.deepEqual(JSON.parse(text), value);
});
