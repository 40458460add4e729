import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  draftOf,
  draftsOf,
  emptyCell,
  emptyScalar,
  type FieldDraft,
  type ScalarDraft,
  type TableDraft,
  valuesOf,
} from '../src/extraction/fieldDrafts.ts';
import { resultShapes, valueShape } from '../src/extraction/fieldShapes.ts';

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: ['string', 'null'], format: 'date' },
    total: { type: 'number' },
    pages: { type: 'integer' },
    paid: { type: 'boolean' },
    disputed: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
    tags: { type: 'array', items: { type: 'string' } },
    vendor: { $ref: '#/$defs/party' },
    line_items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { description: { type: 'string' }, amount: { type: 'number' }, notes: { type: 'array', items: {} } },
      },
    },
  },
  $defs: { party: { type: 'object', properties: { name: { type: 'string' }, vat: { type: ['string', 'null'] } } } },
};

const values = {
  invoice_number: 'INV-1',
  invoice_date: '2024-03-01',
  due_date: null,
  total: 1250.5,
  pages: 2,
  paid: false,
  disputed: null,
  tags: ['urgent', 'paper'],
  vendor: { name: 'ACME', vat: null },
  line_items: [
    { description: 'Widgets', amount: 1000, notes: [] },
    { description: 'Shipping', amount: 250.5, notes: ['by sea'], sku: 'S-1' },
  ],
};

const byName = (drafts: [string, FieldDraft][]) => new Map(drafts);

test('each value gets the editor its schema type calls for', () => {
  const shapes = resultShapes(values, schema);
  assert.deepEqual(
    [...shapes].map(([name, shape]) => [name, shape.kind === 'scalar' ? shape.type : shape.kind]),
    [
      ['invoice_number', 'string'],
      ['invoice_date', 'date'],
      ['due_date', 'date'],
      ['total', 'number'],
      ['pages', 'integer'],
      ['paid', 'boolean'],
      ['disputed', 'boolean'],
      ['tags', 'list'],
      ['vendor', 'object'],
      ['line_items', 'table'],
    ],
  );
  assert.deepEqual(shapes.get('disputed'), { kind: 'scalar', type: 'boolean', nullable: true }, 'anyOf with null is nullable');
  const table = byName(draftsOf(values, schema)).get('line_items') as TableDraft;
  assert.deepEqual(
    table.columns.map(([name, shape]) => [name, shape.kind === 'scalar' ? shape.type : shape.kind]),
    [
      ['description', 'string'],
      ['amount', 'number'],
      ['notes', 'json'],
      ['sku', 'string'],
    ],
    'the schema’s columns, then keys only the values have; a list in a cell is JSON',
  );
  assert.deepEqual(Object.keys(table.rows[0]?.cells ?? {}), ['description', 'amount', 'notes'], 'a key a row lacks stays absent');
});

test('without a schema the values say: dates, numbers, lists and lists of objects', () => {
  const shapes = resultShapes(values, undefined);
  assert.deepEqual(shapes.get('invoice_date'), { kind: 'scalar', type: 'date', nullable: false });
  assert.deepEqual(shapes.get('due_date'), { kind: 'scalar', type: 'string', nullable: true });
  assert.equal(shapes.get('tags')?.kind, 'list');
  assert.equal(shapes.get('line_items')?.kind, 'table');
  assert.equal(valueShape(['2024-01-01', 'soon']).kind, 'list', 'dates among texts are texts');
  assert.deepEqual(valueShape([1, 'a']), { kind: 'json' }, 'a list of mixed values is edited as JSON');
  assert.deepEqual(valueShape('2024-13-01'), { kind: 'scalar', type: 'string', nullable: false }, 'not a date that exists');
});

test('an untouched form saves exactly the values it was given', () => {
  for (const known of [schema, undefined]) {
    const { values: saved, problems } = valuesOf(draftsOf(values, known));
    assert.deepEqual(problems, []);
    assert.deepEqual(saved, values);
  }
});

test('a value that does not fit its type is shown as it was, and saved once it fits', () => {
  const drafts = byName(draftsOf({ total: '12,50 €', invoice_date: '1 March 2024', paid: 'yes', invoice_number: 42 }, schema));
  const total = drafts.get('total') as ScalarDraft;
  assert.deepEqual([total.raw, total.text], [true, '12,50 €']);
  assert.deepEqual(
    [(drafts.get('invoice_date') as ScalarDraft).raw, (drafts.get('invoice_date') as ScalarDraft).text],
    [true, '1 March 2024'],
  );
  const { problems } = valuesOf([...drafts]);
  assert.deepEqual(
    problems.map((problem) => problem.path),
    ['total', 'paid'],
    'the text that is not a number or a boolean is not sent as one',
  );
  assert.match(problems[0]?.message ?? '', /Enter a number.*“12,50 €” is not one/);
  const fixed = valuesOf([
    ['total', { ...total, text: '12.50' }],
    ['paid', { ...(drafts.get('paid') as ScalarDraft), text: 'true' }],
    ['invoice_date', drafts.get('invoice_date') as FieldDraft],
    ['invoice_number', drafts.get('invoice_number') as FieldDraft],
  ]);
  assert.deepEqual(fixed, {
    values: { total: 12.5, paid: true, invoice_date: '1 March 2024', invoice_number: '42' },
    problems: [],
  });
});

test('nested edits are read back with their dot paths', () => {
  const drafts = draftsOf(values, schema);
  const table = byName(drafts).get('line_items') as TableDraft;
  const [first] = table.rows;
  assert.ok(first);
  const edited: TableDraft = {
    ...table,
    rows: [
      { ...first, cells: { ...first.cells, amount: { ...(first.cells.amount as ScalarDraft), text: 'lots' } } },
      { id: 'new', cells: Object.fromEntries(table.columns.map(([name, shape]) => [name, emptyCell(shape)])) },
    ],
  };
  const { problems } = valuesOf(drafts.map(([name, draft]) => [name, name === 'line_items' ? edited : draft]));
  assert.deepEqual(
    problems.map((problem) => problem.path),
    ['line_items.0.amount', 'line_items.1.amount'],
  );

  const added = {
    ...edited,
    rows: [{ id: 'new', cells: { description: emptyCell(table.columns[0]?.[1] ?? { kind: 'json' }) } }],
  };
  const saved = valuesOf([['line_items', added]]);
  assert.deepEqual(saved.values, { line_items: [{ description: '' }] });
});

test('nulls stay null while left empty; an integer must be whole; a new yes/no starts as no', () => {
  const drafts = byName(draftsOf({ due_date: null, pages: 2, vendor: { name: 'A', vat: null } }, schema));
  const pages = drafts.get('pages') as ScalarDraft;
  assert.deepEqual(
    valuesOf([['pages', { ...pages, text: '2.5' }]]).problems[0]?.message,
    'Enter a whole number, such as 42 (2.5 has decimals).',
  );
  assert.deepEqual(valuesOf([...drafts]).values, { due_date: null, pages: 2, vendor: { name: 'A', vat: null } });
  assert.equal(emptyScalar({ kind: 'scalar', type: 'boolean', nullable: false }).text, 'false');
  assert.deepEqual(
    valuesOf([
      ['tags', draftOf(null, { kind: 'list', item: { kind: 'scalar', type: 'string', nullable: false }, nullable: true })],
    ]).values,
    {
      tags: null,
    },
  );
});

test('a value whose structure is not the schema’s is edited as JSON, not dropped', () => {
  const drafts = byName(draftsOf({ tags: 'urgent', vendor: ['ACME'] }, schema));
  assert.deepEqual(drafts.get('tags'), { kind: 'json', text: '"urgent"' });
  assert.deepEqual(valuesOf([...drafts]).values, { tags: 'urgent', vendor: ['ACME'] });
});
