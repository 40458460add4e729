import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LayoutInference } from '../src/data/extractions/result-layout-inference.ts';
import { cellOf, listRows, parentRow } from '../src/data/extractions/result-rows.ts';
import { layoutOfSchema } from '../src/data/extractions/result-table-layout.ts';

/** How the built-in extractions dataset makes tables of results: the layout from a schema or from answers, and the cells. */

const columns = (layout: { columns: Array<{ name: string; type: string }> }) => layout.columns.map((c) => `${c.name} ${c.type}`);

describe('a layout from a JSON Schema', () => {
  test('follows $refs and nullable anyOf, keeps identifiers, makes other keys identifiers, and never takes a key column', () => {
    const layout = layoutOfSchema({
      type: 'object',
      $defs: {
        money: { type: 'number' },
        line: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } },
      },
      properties: {
        invoiceNumber: { type: 'string' },
        total: { $ref: '#/$defs/money' },
        due: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        'Paid?': { type: ['boolean', 'null'] },
        document_id: { type: 'string' },
        DOCUMENT_ID: { type: 'string' },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        meta: { type: 'object', properties: {} },
        lines: { type: 'array', items: { $ref: '#/$defs/line' } },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
        grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
      },
    });
    assert.deepEqual(columns(layout), [
      'invoiceNumber VARCHAR',
      'total DOUBLE',
      'due DATE',
      'paid BOOLEAN',
      'document_id_2 VARCHAR',
      'DOCUMENT_ID_3 VARCHAR',
      'either VARCHAR',
      'meta VARCHAR',
    ]);
    assert.deepEqual(
      layout.lists.map((l) => [l.name, l.scalarItems, l.columns.map((c) => `${c.name} ${c.type}`)]),
      [
        ['lines', false, ['sku VARCHAR', 'qty BIGINT']],
        ['tags', true, ['value VARCHAR']],
        ['grid', true, ['value VARCHAR']],
      ],
    );
  });

  test('a schema without properties makes a table of the document columns alone', () => {
    assert.deepEqual(layoutOfSchema({ type: 'object' }), { columns: [], lists: [] });
  });
});

describe('a layout inferred from answers', () => {
  test('types what every answer agrees on, JSON text for the rest, and lists as child tables', () => {
    const inference = new LayoutInference();
    inference.observe({ n: 1, x: 1, flag: true, kind: 'a', facts: ['a'], rows: [{ a: 1, b: [1] }], mixed: 1, empty: null });
    inference.observe({ n: 2, x: 1.5, flag: false, kind: 'b', facts: [2], rows: [{ a: 2.5, c: 'x' }], mixed: 'one' });
    const layout = inference.layout();
    assert.deepEqual(columns(layout), ['n BIGINT', 'x DOUBLE', 'flag BOOLEAN', 'kind VARCHAR', 'mixed VARCHAR']);
    assert.deepEqual(
      layout.lists.map((l) => [l.name, l.scalarItems, l.columns.map((c) => `${c.name} ${c.type}`)]),
      [
        ['facts', true, ['value VARCHAR']],
        ['rows', false, ['a DOUBLE', 'b VARCHAR', 'c VARCHAR']],
      ],
    );
  });
});

describe('cells', () => {
  test('a value that does not fit its column is NULL, so that a result of an older revision cannot break the table', () => {
    assert.equal(cellOf('12.5', 'DOUBLE'), 12.5);
    assert.equal(cellOf('n/a', 'DOUBLE'), null);
    assert.equal(cellOf(3.5, 'BIGINT'), null);
    assert.equal(cellOf(4, 'BIGINT'), 4);
    assert.equal(cellOf('true', 'BOOLEAN'), true);
    assert.equal(cellOf(1, 'BOOLEAN'), null);
    assert.equal(cellOf('2024-02-29T10:00:00Z', 'DATE'), '2024-02-29');
    assert.equal(cellOf('2023-02-29', 'DATE'), null);
    assert.equal(cellOf('29.02.2024', 'DATE'), null);
    assert.equal(cellOf({ a: [1] }, 'VARCHAR'), '{"a":[1]}');
    assert.equal(cellOf('nul\u0000here', 'VARCHAR'), 'nulhere');
  });

  test('rows of a document: its own, and an item a row numbered from 0', () => {
    const layout = layoutOfSchema({
      type: 'object',
      properties: {
        total: { type: 'number' },
        lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } } } },
      },
    });
    const result = { documentId: 'd1', documentName: 'a.pdf', value: { total: 5, lines: [{ sku: 'x' }, 'stray'] } };
    assert.deepEqual(parentRow(result, layout), { document_id: 'd1', document_name: 'a.pdf', total: 5 });
    const [lines] = layout.lists;
    assert.ok(lines);
    assert.deepEqual(listRows(result, lines), [
      { document_id: 'd1', item_index: 0, sku: 'x' },
      { document_id: 'd1', item_index: 1, sku: null },
    ]);
    assert.deepEqual(listRows({ ...result, value: { lines: 'not a list' } }, lines), []);
  });
});
