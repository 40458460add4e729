import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createOrganization, createUser, type Database } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import {
  AgentEngine,
  type AgentEvent,
  defineTool,
  type LlmGateway,
  type Pack,
  reactStrategy,
  roaStrategy,
  SubjectCatalog,
  ThreadStore,
  TurnStore,
} from '../src/index.ts';
import { offlineServices } from './offline-services.ts';
import { gatewayOf, streamPartsOf, usage } from './scripted-gateway.ts';

/**
 * The Reason–Act–Observe strategy, on a subject that is not a document: a test pack of "boxes"
 * with its own tools, section and working state, and no document in the database.
 */

let database: Database;
let orgId: string;
let userId: string;
const access = () => ({ orgId, role: 'admin' as const, userId });
const box = { kind: 'box', id: 'box-1' };
const ran: string[] = [];

const boxPack: Pack = {
  name: 'boxes',
  serves: ['box'],
  tools: [
    defineTool({
      name: 'count_items',
      description: 'Counts the items in the box.',
      input: z.strictObject({}),
      access: 'read_only',
      run: async (context) => {
        ran.push('count_items');
        context.workingState.counted = 3;
        return { items: 3 };
      },
    }),
    defineTool({
      name: 'empty_box',
      description: 'Empties the box.',
      input: z.strictObject({}),
      access: 'read_write',
      run: async () => {
        ran.push('empty_box');
        return { emptied: true };
      },
    }),
  ],
  async findSubject(_services, _access, subject) {
    if (subject.id !== 'box-1') throw Object.assign(new Error('no such box'), { kind: 'not_found' });
    return { title: 'The box' };
  },
  section: async ({ subject }) => `You look after box ${subject.id}. It holds apples.`,
  workingStateKeys: ['counted'],
};

type Script =
  | { plain: string }
  | { fail: string }
  | { calls: Array<{ id: string; name: string; input: unknown }>; text?: string }
  | { hang: true };

/** A model answering plain calls (reason, observe) and tool-calling calls (act) from one script, in order. */
function scripted(script: Script[]) {
  let index = 0;
  const next = (kind: 'plain' | 'act') => {
    const entry = script[index++];
    if (!entry) throw new Error('the script has no more steps');
    if (kind === 'plain' && !('plain' in entry) && !('hang' in entry) && !('fail' in entry))
      throw new Error(`step ${index - 1} is not a plain call`);
    return entry;
  };
  const hang = (signal: AbortSignal | undefined) =>
    new Promise<never>((_, reject) =>
      signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }),
    );
  const model = new MockLanguageModelV4({
    doGenerate: async ({ abortSignal }) => {
      const entry = next('plain');
      if ('hang' in entry) return hang(abortSignal);
      if ('fail' in entry) throw new Error(entry.fail);
      return {
        content: [{ type: 'text', text: (entry as { plain: string }).plain }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async () => {
      const entry = next('act');
      const step = 'calls' in entry ? { text: entry.text, calls: entry.calls } : {};
      return { stream: convertArrayToReadableStream(streamPartsOf(step)) };
    },
  });
  return { model, gateway: gatewayOf(model) };
}

function engineWith(gateway: LlmGateway, turns = new TurnStore(database.db, 300, 600)) {
  return new AgentEngine({
    llm: gateway,
    subjects: new SubjectCatalog([boxPack]),
    turns,
    threads: new ThreadStore(database.db),
    strategies: [reactStrategy, roaStrategy],
    heartbeatMs: 10_000,
    services: offlineServices(database.db),
  });
}

const reason = (plan: string, finish = false) => ({
  plain: `I will ${plan}.\n\`\`\`json\n{"plan": "${plan}", "tools_to_consider": ["count_items"], "finish": ${finish}}\n\`\`\``,
});
const observe = (observation: string, finalAnswer?: string) => ({
  plain: `Seen: ${observation}. ${JSON.stringify({ observation, should_continue: finalAnswer === undefined, final_answer: finalAnswer ?? '' })}`,
});
const act = (name: string, id = `c-${name}`) => ({ calls: [{ id, name, input: {} }] });

async function collect(run: (emit: (e: AgentEvent) => void) => Promise<unknown>) {
  const events: AgentEvent[] = [];
  const result = await run((e) => {
    events.push(e);
  });
  return { events, result, types: events.map((e) => e.type) };
}
const start =
  (engine: AgentEngine, text: string, extra: Record<string, unknown> = {}) =>
  (emit: (e: AgentEvent) => void) =>
    engine.start(
      { access: access(), subject: box, strategy: 'roa', messages: [{ role: 'user', content: text }], ...extra },
      emit,
    );

before(async () => {
  database = await openTestDatabase();
  orgId = (await createOrganization(database.db, { name: 'Boxes' })).id;
  userId = (await createUser(database.db, { email: 'roa@example.test', password: 'a long enough password' })).id;
});
after(async () => {
  await database.close();
});

describe('a pack with a subject that is not a document', () => {
  test('runs a react turn with its tools, section and working state; no document exists', async () => {
    ran.length = 0;
    const { model, gateway } = scriptedReact();
    const { result } = await collect((emit) =>
      engineWith(gateway).start({ access: access(), subject: box, messages: [{ role: 'user', content: 'how many?' }] }, emit),
    );
    assert.deepEqual(ran, ['count_items']);
    assert.equal((result as { text: string }).text, 'Three apples.');
    assert.deepEqual((result as { working_state: unknown }).working_state, { counted: 3 });
    const prompt = JSON.stringify(model.doStreamCalls[0]?.prompt);
    assert.match(prompt, /You look after box box-1/);
    const tools = (model.doStreamCalls[0]?.tools ?? []).map((t) => t.name).sort();
    assert.deepEqual(tools, ['count_items', 'empty_box', 'request_input']);
  });

  test('an unknown subject kind or subject is refused before the turn starts', async () => {
    const { gateway } = scripted([]);
    await assert.rejects(
      engineWith(gateway).start(
        { access: access(), subject: { kind: 'crate', id: 'x' }, messages: [{ role: 'user', content: 'x' }] },
        () => {},
      ),
      /Subject kind "crate"/,
    );
  });
});

function scriptedReact() {
  const stream = (parts: LanguageModelV4StreamPart[]) => ({ stream: convertArrayToReadableStream(parts) });
  let i = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      i += 1;
      const finish = (calls: boolean) =>
        ({ type: 'finish', usage, finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined } }) as const;
      if (i === 1) {
        return stream([
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'k1', toolName: 'count_items', input: '{}' },
          finish(true),
        ]);
      }
      return stream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Three apples.' },
        { type: 'text-end', id: 't' },
        finish(false),
      ]);
    },
  });
  return { model, gateway: gatewayOf(model) };
}

describe('reason, act, observe', () => {
  test('one step runs reason → act → observe; observe ends the loop with its final answer', async () => {
    ran.length = 0;
    const { gateway } = scripted([
      reason('count the items'),
      act('count_items'),
      observe('three items', 'The box holds 3 items.'),
    ]);
    const { types, result, events } = await collect(start(engineWith(gateway), 'How many items?'));
    assert.deepEqual(types, [
      'turn_started',
      'agent_start',
      'agent_turn_start',
      'agent_reason',
      'tool_start',
      'tool_complete',
      'agent_observe',
      'agent_completion',
      'response_complete',
      'usage',
      'done',
    ]);
    assert.deepEqual(ran, ['count_items']);
    assert.equal((result as { text: string }).text, 'The box holds 3 items.');
    const reasoned = events.find((e) => e.type === 'agent_reason');
    assert.deepEqual(
      reasoned,
      { type: 'agent_reason', content: 'I will count the items.', step: 1 },
      'the JSON block is not shown',
    );
    const usageFrame = events.find((e) => e.type === 'usage') as { input_tokens: number };
    assert.equal(usageFrame.input_tokens, 30, 'reason, act and observe all count');
  });

  test('finish after reason ends the turn with no act', async () => {
    const { gateway } = scripted([reason('answer directly', true)]);
    const { types, result } = await collect(start(engineWith(gateway), 'Hi'));
    assert.deepEqual(types.slice(1, 4), ['agent_start', 'agent_turn_start', 'agent_reason']);
    assert.ok(!types.includes('tool_start'));
    assert.equal((result as { text: string }).text, 'I will answer directly.');
  });

  test('malformed control JSON is free text: the loop goes on; max_steps counts iterations', async () => {
    const { gateway } = scripted([
      { plain: 'Let me think {"plan": broken' },
      act('count_items', 'a1'),
      { plain: 'Looks fine, no JSON here.' },
      { plain: '```json\n{not json}\n```' },
      act('count_items', 'a2'),
      { plain: 'Still going.' },
    ]);
    const { types, result, events } = await collect(start(engineWith(gateway), 'Count', { maxSteps: 2 }));
    assert.equal(types.filter((t) => t === 'agent_turn_start').length, 2, 'two iterations, six model calls');
    assert.deepEqual(types.slice(-5), ['agent_stopped', 'agent_completion', 'response_complete', 'usage', 'done']);
    assert.equal((result as { stopped?: string }).stopped, 'max_steps');
    const firstReason = events.find((e) => e.type === 'agent_reason') as { content: string };
    assert.equal(firstReason.content, 'Let me think {"plan": broken');
  });

  test('a write in act pauses for approval; approving runs it, then observe', async () => {
    ran.length = 0;
    const { gateway } = scripted([reason('empty it'), act('empty_box', 'w1'), observe('emptied', 'Done: the box is empty.')]);
    const engine = engineWith(gateway);
    const paused = await collect(start(engine, 'Empty the box'));
    assert.deepEqual(paused.types.slice(-3), ['pending_tool_calls', 'usage', 'done']);
    const turnId = (paused.result as { turn_id: string }).turn_id;
    const resumed = await collect((emit) =>
      engine.continue({ access: access(), turnId, approvals: [{ callId: 'w1', approved: true }] }, emit),
    );
    assert.deepEqual(resumed.types.slice(0, 4), ['turn_started', 'tool_start', 'tool_complete', 'agent_observe']);
    const complete = resumed.events.find((e) => e.type === 'tool_complete') as { decision: string };
    assert.equal(complete.decision, 'approved');
    assert.deepEqual(ran, ['empty_box']);
  });

  test('request_input pauses with the question; the answer goes on to observe', async () => {
    const { gateway } = scripted([
      reason('ask which box'),
      { calls: [{ id: 'q1', name: 'request_input', input: { question: 'Which shelf?' } }] },
      observe('the person said top', 'Top shelf it is.'),
    ]);
    const engine = engineWith(gateway);
    const paused = await collect(start(engine, 'Move the box'));
    const asked = paused.events.find((e) => e.type === 'agent_request_input') as { question: string; step: number };
    assert.equal(asked.question, 'Which shelf?');
    assert.equal(asked.step, 1);
    const turnId = (paused.result as { turn_id: string }).turn_id;
    const answered = await collect((emit) => engine.continue({ access: access(), turnId, approvals: [], input: 'top' }, emit));
    const result = answered.events.find((e) => e.type === 'tool_complete') as { result: unknown };
    assert.deepEqual(result.result, { answer: 'top' });
    assert.equal((answered.result as { text: string }).text, 'Top shelf it is.');
  });

  test('an unanswered question ends the turn at its timeout', async () => {
    const { gateway } = scripted([
      reason('ask'),
      { calls: [{ id: 'q1', name: 'request_input', input: { question: 'Which?' } }] },
    ]);
    const engine = engineWith(gateway, new TurnStore(database.db, 300, -1));
    const paused = await collect(start(engine, 'Ask me'));
    const turnId = (paused.result as { turn_id: string }).turn_id;
    const ended = await engine.endUnansweredQuestions();
    const mine = ended.find((e) => e.turn.id === turnId);
    assert.equal(mine?.question, 'Which?');
    await assert.rejects(
      engine.continue({ access: access(), turnId, approvals: [], input: 'late' }, () => {}),
      /already continued|finished/,
    );
  });

  test('stop is honoured at each phase boundary and after a tool call', async () => {
    for (const stopAfter of ['agent_reason', 'tool_complete', 'agent_observe'] as const) {
      let turnId = '';
      const events: AgentEvent[] = [];
      const script = scripted([reason('count'), act('count_items'), observe('three'), reason('more'), act('count_items')]);
      const stopping = engineWith(script.gateway);
      await stopping.start(
        { access: access(), subject: box, strategy: 'roa', maxSteps: 5, messages: [{ role: 'user', content: 'Count' }] },
        async (event) => {
          events.push(event);
          if (event.type === 'turn_started') turnId = event.turn_id;
          if (event.type === stopAfter) await stopping.stop(turnId, access(), () => {});
        },
      );
      const types = events.map((e) => e.type);
      const at = types.indexOf(stopAfter);
      assert.deepEqual(types.slice(at + 1, at + 3), ['agent_stopped', 'agent_completion'], `stop after ${stopAfter}`);
      assert.equal((events.at(-1) as { result: { stopped?: string } }).result.stopped, 'user');
    }
  });

  test('a provider failing during observe ends with an error; the thread is as it was; sending again works', async () => {
    const threads = new ThreadStore(database.db);
    const thread = await threads.createFor(access(), box, { title: 'Failing' });
    const readThread = async () => ({
      messages: [{ role: 'user' as const, content: 'Count' }],
      workingState: {},
      stored: { stored: 0, valid: 0 },
    });
    const failing = scripted([reason('count'), { fail: 'provider down' }]);
    const events: AgentEvent[] = [];
    await assert.rejects(
      engineWith(failing.gateway).start(
        { access: access(), subject: box, strategy: 'roa', threadId: thread.id, readThread, messages: [] },
        (e) => {
          events.push(e);
        },
      ),
    );
    assert.equal(events.at(-1)?.type, 'error');
    assert.deepEqual((await threads.get(access(), box, thread.id)).messages, [], 'nothing half-persisted');
    const working = scripted([reason('count', true)]);
    await engineWith(working.gateway).start(
      { access: access(), subject: box, strategy: 'roa', threadId: thread.id, readThread, messages: [] },
      () => {},
    );
    const after = await threads.get(access(), box, thread.id);
    assert.deepEqual(
      after.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.equal(after.strategy, 'roa', 'the thread remembers its strategy');
  });
});
