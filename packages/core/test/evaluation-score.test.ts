import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compareValues, sameValue, scoreEvaluation } from '../src/evaluation/score.ts';

/** Scoring an answer against verified truth: normalised values, arrays irrespective of order, missing fields. */

const wrong = (expected: unknown, actual: unknown) =>
  compareValues(expected, actual)
    .filter((l) => !l.correct)
    .map((l) => l.path);

describe('values compared after normalisation', () => {
  test('amounts whatever their separators, dates whatever their notation, text whatever its case and spacing', () => {
    assert.ok(sameValue(1234.5, '1,234.50'));
    assert.ok(sameValue('1.234,50', 1234.5));
    assert.ok(sameValue('$1,234.50', '1234.5'));
    assert.ok(sameValue('2012-11-15', 'Nov 15 2012'));
    assert.ok(sameValue('15.11.2012', '2012-11-15'));
    assert.ok(sameValue('ACME  Corp ', 'acme corp'));
    assert.ok(sameValue(true, 'True'));
    assert.ok(sameValue(null, ''));
    assert.ok(!sameValue(1234.5, '1234.6'));
    assert.ok(!sameValue('2012-11-15', '2012-11-16'));
    assert.ok(!sameValue('ACME', 'ACME Inc'));
    assert.ok(!sameValue(null, 0), 'zero is a value, not nothing');
  });
});

describe('objects and missing fields', () => {
  test('nested objects compare leaf by leaf, paths with their keys', () => {
    const leaves = compareValues({ total: '1,234.50', vendor: { name: 'Acme' } }, { total: 1234.5, vendor: { name: 'ACME ' } });
    assert.deepEqual(
      leaves.map((l) => [l.path, l.field, l.correct]),
      [
        ['total', 'total', true],
        ['vendor.name', 'vendor.name', true],
      ],
    );
  });

  test('a field missing on one side is wrong unless both are null or empty', () => {
    assert.deepEqual(wrong({ a: 1, b: 2 }, { a: 1 }), ['b']);
    assert.deepEqual(wrong({ a: 1 }, { a: 1, extra: 'x' }), ['extra']);
    assert.deepEqual(wrong({ a: null, b: '', c: [] }, { d: null }), []);
    assert.deepEqual(
      compareValues({ a: null }, {}).map((l) => [l.path, l.correct]),
      [['a', true]],
      'null against missing: one correct leaf',
    );
    assert.deepEqual(wrong({ vendor: { name: 'A', city: 'B' } }, { vendor: null }), ['vendor.name', 'vendor.city']);
  });
});

describe('arrays irrespective of order', () => {
  test('arrays of scalars as multisets', () => {
    assert.deepEqual(wrong({ tags: ['a', 'b', 'c'] }, { tags: ['C', 'a', 'b'] }), []);
    // One "a" answered twice: the second is paired with the missing "b".
    assert.deepEqual(wrong({ tags: ['a', 'b'] }, { tags: ['a', 'a'] }), ['tags[1]']);
    // An extra item is wrong; a missing one too.
    assert.deepEqual(wrong({ tags: ['a'] }, { tags: ['a', 'z'] }), ['tags[1]']);
    assert.deepEqual(wrong({ tags: ['a', 'b'] }, { tags: ['b'] }), ['tags[0]']);
    assert.deepEqual(wrong({ amounts: [10, '1,234.50'] }, { amounts: ['1234.5', '10.00'] }), []);
  });

  test('arrays of objects paired by most agreeing fields; unmatched items are wrong', () => {
    const expected = {
      line_items: [
        { description: 'Widget', amount: 10 },
        { description: 'Gadget', amount: 20 },
        { description: 'Gizmo', amount: 30 },
      ],
    };
    const actual = {
      line_items: [
        { description: 'gadget', amount: '20.00' },
        { description: 'Widget', amount: 11 },
      ],
    };
    const leaves = compareValues(expected, actual);
    assert.deepEqual(
      leaves.filter((l) => !l.correct).map((l) => [l.path, l.field, l.expected, l.actual]),
      [
        ['line_items[0].amount', 'line_items[].amount', 10, 11],
        ['line_items[2].description', 'line_items[].description', 'Gizmo', null],
        ['line_items[2].amount', 'line_items[].amount', 30, null],
      ],
    );
    assert.equal(leaves.length, 6);
  });
});

describe('scoreEvaluation', () => {
  test('accuracy per field (indexes removed) and overall, and the differences', () => {
    const score = scoreEvaluation([
      {
        documentId: 'd1',
        expected: { total: 100, date: '2012-11-15', items: [{ sku: 'A' }, { sku: 'B' }] },
        actual: { total: '100.00', date: 'Nov 15 2012', items: [{ sku: 'b' }, { sku: 'A' }] },
      },
      {
        documentId: 'd2',
        expected: { total: 5, date: null, items: [{ sku: 'C' }] },
        actual: { total: 6, items: [{ sku: 'C' }, { sku: 'D' }] },
      },
    ]);
    assert.deepEqual(score.fields, [
      { path: 'total', correct: 1, total: 2, accuracy: 0.5 },
      { path: 'date', correct: 2, total: 2, accuracy: 1 },
      { path: 'items[].sku', correct: 3, total: 4, accuracy: 0.75 },
    ]);
    assert.deepEqual(score.overall, { correct: 6, total: 8, accuracy: 0.75 });
    assert.deepEqual(score.differences, [
      { documentId: 'd2', path: 'total', field: 'total', expected: 5, actual: 6 },
      { documentId: 'd2', path: 'items[1].sku', field: 'items[].sku', expected: null, actual: 'D' },
    ]);
  });

  test('nothing answered: no accuracy', () => {
    assert.deepEqual(scoreEvaluation([]), { overall: { correct: 0, total: 0, accuracy: null }, fields: [], differences: [] });
  });
});
