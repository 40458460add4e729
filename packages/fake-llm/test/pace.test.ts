import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { streamText, tool } from 'ai';
import { z } from 'zod';
import type { FakeLlmServer, FakePace } from '../src/index.ts';
import { collect, fakeServerPerFile, protocolCases } from './helpers.ts';

// Fast enough for a test run; what is checked is the shape of the stream, never its timing.
const PACE: FakePace = { firstTokenMs: 1, tokensPerSecond: 2000 };
const TEXT = 'Paced answers come one word at a time.';
const WORDS = ['Paced', ' answers', ' come', ' one', ' word', ' at', ' a', ' time.'];

let server: FakeLlmServer;
fakeServerPerFile((started) => {
  server = started;
});

const lookupTool = tool({ description: 'Look a word up', inputSchema: z.object({ word: z.string() }) });

for (const c of protocolCases) {
  describe(c.protocol, () => {
    test('a paced text streams one word per delta, each logged in `sent` as it left', async () => {
      server.enqueue({ text: TEXT, pace: PACE });
      const before = performance.timeOrigin + performance.now();
      const parts = await collect(streamText({ model: c.model(server), prompt: 'hello', maxRetries: 0 }).fullStream);
      const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));
      assert.deepEqual(deltas, WORDS);
      assert.deepEqual(
        server.sent.map((s) => s.text),
        WORDS,
      );
      assert.ok(server.sent.every((s) => s.kind === 'text' && s.request === 0));
      assert.ok(server.sent[0]!.at >= before, 'stamps are epoch milliseconds');
      for (let i = 1; i < server.sent.length; i++) assert.ok(server.sent[i]!.at >= server.sent[i - 1]!.at);
    });

    test('paced reasoning and tool-call arguments arrive intact, logged by kind', async () => {
      server.enqueue({
        reasoning: { text: 'Let me look it up.' },
        toolCalls: [{ name: 'lookup', arguments: { word: 'pace' } }],
        pace: PACE,
      });
      const result = streamText({ model: c.model(server), prompt: 'x', tools: { lookup: lookupTool }, maxRetries: 0 });
      await collect(result.fullStream);
      const calls = await result.toolCalls;
      assert.deepEqual(calls[0]?.input, { word: 'pace' });
      const ofKind = (kind: string) =>
        server.sent
          .filter((s) => s.kind === kind)
          .map((s) => s.text)
          .join('');
      assert.equal(ofKind('tool_arguments'), '{"word":"pace"}');
      assert.ok(server.sent.filter((s) => s.kind === 'tool_arguments').every((s) => s.text.length <= 4));
      assert.equal(ofKind('reasoning'), 'Let me look it up.');
      assert.equal(await result.reasoningText, 'Let me look it up.');
    });
  });
}

describe('sent log', () => {
  test('unpaced streams are logged too, per request, and non-stream answers are not', async () => {
    const c = protocolCases[0]!;
    server.enqueue({ text: 'first answer here' }, { text: 'second' }, { text: 'not streamed' });
    await streamText({ model: c.model(server), prompt: 'a', maxRetries: 0 }).text;
    await streamText({ model: c.model(server), prompt: 'b', maxRetries: 0 }).text;
    await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    }).then((r) => r.json());
    const byRequest = (request: number) =>
      server.sent
        .filter((s) => s.request === request)
        .map((s) => s.text)
        .join('');
    assert.equal(byRequest(0), 'first answer here');
    assert.equal(byRequest(1), 'second');
    assert.equal(byRequest(2), '');
  });

  test('reset clears it', async () => {
    server.enqueue({ text: 'something' });
    await streamText({ model: protocolCases[2]!.model(server), prompt: 'a', maxRetries: 0 }).text;
    assert.ok(server.sent.length > 0);
    server.reset();
    assert.equal(server.sent.length, 0);
  });
});
