import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shapeOfResult } from '../src/chat/results/resultShapes.ts';

test('a web search result is its query, provider and links, not extraction results', () => {
  const shape = shapeOfResult(
    {
      query: 'lightweight tent',
      provider: 'searxng',
      results: [{ title: 'Tents', url: 'https://example.com/tents', snippet: 'Light ones' }, { url: 'https://x.test' }],
    },
    { query: 'lightweight tent' },
  );
  assert.deepEqual(shape, {
    kind: 'web',
    query: 'lightweight tent',
    provider: 'searxng',
    results: [
      { title: 'Tents', url: 'https://example.com/tents', snippet: 'Light ones' },
      { title: 'https://x.test', url: 'https://x.test', snippet: '' },
    ],
  });
});

test('a note write is the note with its version, a rewrite with its line counts, a deletion said as one', () => {
  assert.deepEqual(shapeOfResult({ note_id: 'n1', name: 'Packing list', version: 1, size: 40 }, {}), {
    kind: 'note',
    name: 'Packing list',
    version: 1,
    deleted: false,
    change: null,
  });
  assert.deepEqual(shapeOfResult({ note_id: 'n1', name: 'Packing list', version: 3, additions: 2, deletions: 1 }, {}), {
    kind: 'note',
    name: 'Packing list',
    version: 3,
    deleted: false,
    change: { additions: 2, deletions: 1 },
  });
  assert.equal((shapeOfResult({ deleted: true, note_id: 'n1', name: 'Old' }, {}) as { deleted: boolean }).deleted, true);
});

test('list_notes is a list of notes with their version and size', () => {
  const shape = shapeOfResult({ notes: [{ note_id: 'n1', name: 'Recipes', version: 2, size: 120 }] }, {});
  assert.deepEqual(shape, {
    kind: 'list',
    what: 'notes',
    items: [{ href: null, name: 'Recipes', detail: 'v2 · 120 characters' }],
    total: null,
  });
});
