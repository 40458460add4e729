import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesPattern, patternLike, patternProblems } from '../src/permissions/rule-pattern.ts';

test('argument globs: paths into objects and arrays, * across slashes, a missing argument matches nothing', () => {
  assert.equal(matchesPattern({ document_id: 'abc*' }, { document_id: 'abc/def' }), true);
  assert.equal(matchesPattern({ 'fields[0].name': 'to?al' }, { fields: [{ name: 'total' }] }), true);
  assert.equal(matchesPattern({ n: '4*' }, { n: 42 }), true);
  assert.equal(matchesPattern({ x: '*' }, {}), false);
  assert.equal(matchesPattern({ x: 'A*' }, { x: 'abc' }), false, 'case counts');
  assert.deepEqual(patternProblems({ 'a b': 'x', y: '[abc' }).length, 2);
});

test('"calls like this": the arguments naming the target, matched literally; the rest may vary', () => {
  const like = patternLike({ tag_id: 'a*[b]?', color: '#dc2626', description: 'long text' });
  assert.deepEqual(Object.keys(like), ['tag_id']);
  assert.equal(matchesPattern(like, { tag_id: 'a*[b]?', color: '#000000' }), true);
  assert.equal(matchesPattern(like, { tag_id: 'ab' }), false, 'special characters are literal');
  assert.deepEqual(
    Object.keys(patternLike({ q: 'x', limit: 5 })),
    ['q', 'limit'],
    'nothing names a target: every short plain argument',
  );
  assert.deepEqual(patternLike(null), {});
});
