import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Evaluation, EvaluationReport, FieldAccuracy } from '../src/api/evaluations.ts';
import { buildAccuracyTable, evaluatedRevisions, percent, shownValue } from '../src/prompts/evaluation/accuracyTable.ts';

const counts = { total: 3, pending: 0, running: 0, succeeded: 3, failed: 0, cancelled: 0 };

function evaluation(id: string, version: number, status: Evaluation['status'] = 'finished'): Evaluation {
  return {
    evaluation_id: id,
    prompt_id: 'p',
    prompt_revid: `rev${version}`,
    prompt_version: version,
    status,
    counts,
    document_ids: [],
    created_by: 'u',
    created_at: '2025-01-01T00:00:00Z',
    finished_at: null,
  };
}

const field = (path: string, correct: number, total: number): FieldAccuracy => ({
  path,
  correct,
  total,
  accuracy: Math.round((correct / total) * 10_000) / 10_000,
});

function report(e: Evaluation, fields: FieldAccuracy[]): EvaluationReport {
  const correct = fields.reduce((sum, f) => sum + f.correct, 0);
  const total = fields.reduce((sum, f) => sum + f.total, 0);
  return {
    ...e,
    accuracy: { overall: total ? correct / total : null, correct, total, documents: 3, complete: true, fields },
    differences: [],
  };
}

test('the evaluated revisions: the latest evaluation of each version, oldest version first, a cancelled one last resort', () => {
  // Newest first, as the server lists them.
  const list = [
    evaluation('e5', 3, 'cancelled'),
    evaluation('e4', 2),
    evaluation('e3', 1, 'cancelled'),
    evaluation('e2', 2),
    evaluation('e1', 1),
  ];
  assert.deepEqual(
    evaluatedRevisions(list).map((e) => e.evaluation_id),
    ['e1', 'e4', 'e5'],
  );
  assert.deepEqual(evaluatedRevisions([]), []);
});

test('fields × revisions: the latest fields first, missing cells empty, changes marked against the column before', () => {
  const one = evaluation('a', 1);
  const two = evaluation('b', 2);
  const reports = new Map([
    ['a', report(one, [field('invoice_number', 3, 3), field('total', 2, 3), field('notes', 1, 1)])],
    ['b', report(two, [field('invoice_number', 3, 3), field('total', 3, 3), field('date', 2, 3)])],
  ]);
  const table = buildAccuracyTable([one, two], reports);
  assert.deepEqual(
    table.columns.map((c) => c.evaluation.prompt_version),
    [1, 2],
  );
  assert.deepEqual(
    table.rows.map((r) => r.field),
    ['invoice_number', 'total', 'date', 'notes'],
  );
  const row = (name: string) => table.rows.find((r) => r.field === name)?.cells;
  assert.deepEqual(
    row('invoice_number')?.map((c) => c?.change),
    [null, null],
  );
  assert.deepEqual(row('total')?.[1], { correct: 3, total: 3, accuracy: 1, change: 'up' });
  assert.equal(row('date')?.[0], null, 'version 1 had no date');
  assert.equal(row('date')?.[1]?.change, null, 'nothing to compare a new field with');
  assert.equal(row('notes')?.[1], null);
  // Overall: 6/7 then 8/9, better.
  assert.deepEqual(
    table.overall.map((c) => [c?.correct, c?.total, c?.change]),
    [
      [6, 7, null],
      [8, 9, 'up'],
    ],
  );
});

test('a column whose report is not loaded yet, or which has no answer yet, has empty cells', () => {
  const one = evaluation('a', 1);
  const two = evaluation('b', 2, 'running');
  const reports = new Map([
    ['a', report(one, [field('total', 1, 2)])],
    ['b', report(two, [])],
  ]);
  const table = buildAccuracyTable([one, two, evaluation('c', 3)], reports);
  assert.deepEqual(table.rows, [{ field: 'total', cells: [{ correct: 1, total: 2, accuracy: 0.5, change: null }, null, null] }]);
  assert.deepEqual(table.overall.slice(1), [null, null]);
});

test('percentages and compared values as shown', () => {
  assert.equal(percent(1), '100 %');
  assert.equal(percent(0.6667), '66.7 %');
  assert.equal(percent(0), '0 %');
  assert.equal(shownValue(null), '—');
  assert.equal(shownValue(undefined), '—');
  assert.equal(shownValue('INV-1'), 'INV-1');
  assert.equal(shownValue(''), '""');
  assert.equal(shownValue(99), '99');
  assert.equal(shownValue({ sku: 'Q' }), '{"sku":"Q"}');
});
