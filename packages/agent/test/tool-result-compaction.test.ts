import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createOrganization, createUser, type Database } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import type { ModelMessage } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { COMPACTED_RESULT_CHARS, withUsedResultsCompacted } from '../src/engine/tool-result-compaction.ts';
import { AgentEngine, defineTool, type Pack, reactStrategy, SubjectCatalog, ThreadStore, TurnStore } from '../src/index.ts';
import { ToolRegistry } from '../src/tools/tool.ts';
import { offlineServices } from './offline-services.ts';
import { gatewayOf, streamPartsOf } from './scripted-gateway.ts';

const BIG = 'lorem ipsum '.repeat(1_000);

const tools = [
  defineTool({
    name: 'read_text',
    description: 'Reads a text, whole or from an offset.',
    input: z.strictObject({ name: z.string(), from: z.number().optional() }),
    access: 'read_only',
    run: async (_c, input) => ({ name: input.name, text: `${input.name}: ${BIG}` }),
  }),
  defineTool({
    name: 'get_id',
    description: 'Answers a short id.',
    input: z.strictObject({}),
    access: 'read_only',
    run: async () => ({ id: 'id-7' }),
  }),
  defineTool({
    name: 'write_text',
    description: 'Writes a text and answers it back.',
    input: z.strictObject({ name: z.string() }),
    access: 'read_write',
    run: async () => ({ written: BIG }),
  }),
  defineTool({
    name: 'costly_read',
    description: 'Reads with a model call of its own.',
    input: z.strictObject({}),
    access: 'read_only',
    asksFirst: 'it makes a model call',
    run: async () => ({ text: BIG }),
  }),
];
const registry = new ToolRegistry(tools);

const call = (id: string, name: string, input: unknown): ModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName: name, input }],
});
const result = (id: string, name: string, value: unknown): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'json', value: value as never } }],
});
const outputOf = (message: ModelMessage | undefined) =>
  (message?.content as Array<{ output: { type: string; value: unknown } }> | undefined)?.[0]?.output;

/** Two turns: the first read a large text and a short id, and answered; the second is under way. */
const conversation: ModelMessage[] = [
  { role: 'user', content: 'Read the contract.' },
  call('c1', 'read_text', { name: 'contract', from: 0 }),
  result('c1', 'read_text', { text: BIG }),
  call('c2', 'get_id', {}),
  result('c2', 'get_id', { id: 'id-7' }),
  { role: 'assistant', content: 'It is a contract.' },
  { role: 'user', content: 'Now the annex.' },
  call('c3', 'read_text', { name: 'annex' }),
  result('c3', 'read_text', { text: BIG }),
];

describe('compacting used tool results', () => {
  test('a large result of an earlier turn is replaced by a stand-in naming the call that reads it again', () => {
    const sent = withUsedResultsCompacted(conversation, registry);
    const output = outputOf(sent[2]);
    assert.equal(output?.type, 'text');
    const standIn = String(output?.value);
    assert.ok(standIn.length < 400, standIn);
    assert.match(standIn, /call read_text with \{"name":"contract","from":0\}/);
    assert.match(standIn, new RegExp(`\\(${JSON.stringify(outputOf(conversation[2])).length} characters\\)`));
    assert.ok(JSON.stringify(outputOf(conversation[2])).length > COMPACTED_RESULT_CHARS);
  });

  test("the current turn's results, small results, writes and reads that ask first stay whole", () => {
    const history: ModelMessage[] = [
      { role: 'user', content: 'Write and check.' },
      call('w1', 'write_text', { name: 'x' }),
      result('w1', 'write_text', { written: BIG }),
      call('r1', 'costly_read', {}),
      result('r1', 'costly_read', { text: BIG }),
      { role: 'assistant', content: 'Done.' },
      ...conversation,
    ];
    const sent = withUsedResultsCompacted(history, registry);
    for (const index of [2, 4, 10, 14]) assert.deepEqual(sent[index], history[index], `message ${index}`);
    assert.equal(outputOf(sent[8])?.type, 'text', 'the large read of the earlier turn is compacted');
  });

  test('a result the model never answered after (a stopped turn) stays whole; the stored messages never change', () => {
    const stopped: ModelMessage[] = [...conversation.slice(0, 3), { role: 'user', content: 'Go on.' }];
    const copy = structuredClone(stopped);
    assert.deepEqual(withUsedResultsCompacted(stopped, registry), stopped);
    withUsedResultsCompacted(conversation, registry);
    assert.deepEqual(stopped, copy);
    assert.deepEqual(outputOf(conversation[2]), { type: 'json', value: { text: BIG } });
  });
});

/** The engine over a thread with a scripted model: what each step sent, and what the thread stored. */
describe('compaction in a conversation', () => {
  let database: Database;
  let access: { orgId: string; role: 'admin'; userId: string };
  const subject = { kind: 'shelf', id: 'shelf-1' };
  const pack: Pack = {
    name: 'shelf',
    serves: ['shelf'],
    tools,
    findSubject: async () => ({ title: 'Shelf' }),
    section: async () => 'A shelf of texts.',
  };

  before(async () => {
    database = await openTestDatabase();
    const orgId = (await createOrganization(database.db, { name: 'Compaction' })).id;
    const userId = (await createUser(database.db, { email: 'compaction@example.test', password: 'a long enough password' })).id;
    access = { orgId, role: 'admin', userId };
  });
  after(async () => {
    await database.close();
  });

  test('old large reads are compacted, the current turn sends each step the previous prompt unchanged, the thread keeps all', async () => {
    const replies = [
      { calls: [{ id: 'a1', name: 'read_text', input: { name: 'contract' } }] },
      { text: 'It is a contract.' },
      { calls: [{ id: 'b1', name: 'read_text', input: { name: 'annex' } }] },
      { calls: [{ id: 'b2', name: 'get_id', input: {} }] },
      { text: 'The annex is id-7.' },
    ];
    let index = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: convertArrayToReadableStream(streamPartsOf(replies[index++] ?? { text: 'no more' })) }),
    });
    const threads = new ThreadStore(database.db);
    const engine = new AgentEngine({
      llm: gatewayOf(model),
      subjects: new SubjectCatalog([pack]),
      turns: new TurnStore(database.db, 300),
      threads,
      strategies: [reactStrategy],
      heartbeatMs: 10_000,
      services: offlineServices(database.db),
    });
    const thread = await threads.createFor(access, subject);
    const say = (content: string) =>
      engine.start(
        {
          access,
          subject,
          threadId: thread.id,
          messages: [{ role: 'user', content }],
          readThread: async () => {
            const history = await threads.historyFor(access, subject, thread.id);
            return {
              messages: [...history.messages, { role: 'user', content }],
              workingState: history.workingState,
              stored: { stored: history.stored, valid: history.messages.length },
            };
          },
        },
        () => {},
      );
    await say('Read the contract.');
    await say('Now the annex.');

    const prompts = model.doStreamCalls.map((c: LanguageModelV4CallOptions) => c.prompt);
    const text = (prompt: unknown) => JSON.stringify(prompt);
    assert.match(text(prompts[1]), /contract: (lorem ipsum ){100}/, 'whole until the model answered after it');
    const secondTurn = prompts.slice(2);
    for (const prompt of secondTurn) {
      assert.doesNotMatch(text(prompt), /contract: lorem/, 'the first turn read is compacted');
      assert.match(text(prompt), /call read_text with \{\\"name\\":\\"contract\\"\}/);
    }
    assert.match(text(prompts[3]), /annex: (lorem ipsum ){100}/, "the current turn's read stays whole");
    for (let i = 1; i < secondTurn.length; i++) {
      const before = secondTurn[i - 1] ?? [];
      assert.deepEqual(secondTurn[i]?.slice(0, before.length), before, `step ${i} starts with step ${i - 1}'s prompt`);
    }

    const stored = JSON.stringify(await threads.messagesOf(thread.id));
    assert.match(stored, /contract: (lorem ipsum ){100}/, 'the thread keeps the result whole');
    assert.doesNotMatch(stored, /Left out to save room/);
  });
});
