import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isId, newId } from '../src/ids.ts';

test('ids have the ObjectId shape, start with the time and do not repeat across refills of the random pool', () => {
  const before = Math.floor(Date.now() / 1000);
  const ids = Array.from({ length: 2000 }, newId);
  const after = Math.floor(Date.now() / 1000);
  assert.ok(ids.every(isId));
  assert.equal(new Set(ids).size, ids.length);
  const seconds = ids.map((id) => Number.parseInt(id.slice(0, 8), 16));
  assert.ok(seconds.every((s) => s >= before && s <= after));
  assert.equal(new Set(ids.map((id) => id.slice(8))).size, ids.length);
});
