import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModelMessage } from 'ai';
import { forProvider, windowed, withoutOrphanedCalls } from '../src/engine/history.ts';

const assistantWithThinking: ModelMessage = {
  role: 'assistant',
  content: [
    { type: 'reasoning', text: 'thinking', providerOptions: { anthropic: { signature: 'sig-1' } } },
    { type: 'text', text: 'answer' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'get_tag', input: { tag_id: 't' } },
  ],
};
const toolResult: ModelMessage = {
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_tag', output: { type: 'json', value: { ok: true } } }],
};

test('signed thinking goes back to its provider and is dropped for another', () => {
  assert.deepEqual(forProvider([assistantWithThinking], 'anthropic'), [assistantWithThinking]);
  const [forOpenAi] = forProvider([assistantWithThinking], 'openai');
  assert.ok(forOpenAi);
  assert.deepEqual(
    (forOpenAi.content as Array<{ type: string }>).map((p) => p.type),
    ['text', 'tool-call'],
  );
});

test('a tool call without its result is reduced to text; answered calls stay', () => {
  const orphaned = withoutOrphanedCalls([{ role: 'user', content: 'hi' }, assistantWithThinking]);
  const parts = orphaned[1]?.content as Array<{ type: string; text?: string }>;
  assert.equal(parts.at(-1)?.type, 'text');
  assert.match(parts.at(-1)?.text ?? '', /called get_tag .* it did not run/);
  const answered = withoutOrphanedCalls([{ role: 'user', content: 'hi' }, assistantWithThinking, toolResult]);
  const replayed = answered[1];
  assert.ok(replayed);
  assert.equal((replayed.content as Array<{ type: string }>).at(-1)?.type, 'tool-call');
});

test('the window starts at a user message, so a tool result never travels without its call', () => {
  const long = 'x'.repeat(4000);
  const history: ModelMessage[] = [
    { role: 'user', content: `old ${long}` },
    assistantWithThinking,
    toolResult,
    { role: 'assistant', content: long },
    { role: 'user', content: 'newest question' },
    assistantWithThinking,
    toolResult,
  ];
  const kept = windowed(history, 100);
  assert.equal(kept[0]?.role, 'user');
  assert.equal(kept[0]?.content, 'newest question');
  assert.equal(kept.length, 3);
  assert.equal(windowed(history, 1_000_000).length, history.length);
});
