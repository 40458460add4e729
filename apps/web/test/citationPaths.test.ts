import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWithin, itemPath, keyPath } from '../src/citations/citationPaths.ts';

test('the form builds the server paths of top-level, nested, list and table values', () => {
  // ResultField: a top-level field's path is its name.
  assert.equal(keyPath('', 'total'), 'total');
  // ValueField: an object's field.
  assert.equal(keyPath('vendor', 'name'), 'vendor.name');
  assert.equal(keyPath(keyPath('vendor', 'address'), 'city'), 'vendor.address.city');
  // ListEditor: a list's item.
  assert.equal(itemPath('parties', 0), 'parties[0]');
  // TableEditor: a row's cell.
  assert.equal(keyPath(itemPath('line_items', 2), 'amount'), 'line_items[2].amount');
  // A list of lists inside a table row.
  assert.equal(itemPath(itemPath(keyPath(itemPath('rows', 1), 'cells'), 3), 0), 'rows[1].cells[3][0]');
  // A key that is no identifier, as the server brackets it.
  assert.equal(keyPath('', 'Invoice No'), '["Invoice No"]');
  assert.equal(keyPath(itemPath('items', 0), 'unit-price'), 'items[0]["unit-price"]');
});

test('a value within a field: itself, its keys and its items, not a field whose name starts the same', () => {
  assert.ok(isWithin('line_items', 'line_items'));
  assert.ok(isWithin('line_items[2].amount', 'line_items'));
  assert.ok(isWithin('line_items[2].amount', 'line_items[2]'));
  assert.ok(isWithin('vendor.name', 'vendor'));
  assert.ok(!isWithin('line_items_total', 'line_items'));
  assert.ok(!isWithin('line_items[12].amount', 'line_items[1]'));
  assert.ok(!isWithin('vendor', 'vendor.name'));
});
