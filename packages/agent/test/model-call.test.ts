import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { APICallError, RetryError, streamText, type ToolSet, tool, zodSchema } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { retryDelayMs } from '../src/engine/model-call.ts';
import { runStep, type StepInput, toolSetOf } from '../src/engine/step.ts';
import { defineTool, ToolRegistry } from '../src/tools/tool.ts';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const finish = (reason: 'stop' | 'tool-calls'): LanguageModelV4StreamPart => ({
  type: 'finish',
  usage,
  finishReason: { unified: reason, raw: undefined },
});

const tools: ToolSet = {
  get_ocr_text: tool({ description: 'Reads the text.', inputSchema: zodSchema(z.strictObject({ page: z.number().optional() })) }),
};

function modelOf(parts: LanguageModelV4StreamPart[]) {
  return new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
}

function stepInput(overrides: Partial<StepInput>): StepInput {
  return {
    model: modelOf([]),
    modelId: 'openai:gpt-4.1-mini',
    system: 'You read documents.',
    messages: [{ role: 'user', content: 'What is the total?' }],
    tools,
    roundIndex: 0,
    historyBudgetTokens: 10_000,
    emit: async () => {},
    abortSignal: new AbortController().signal,
    maxRetries: 0,
    timeoutMs: 10_000,
    ...overrides,
  };
}

/** Provider streams of the shapes a step meets: what streamText made of each is what we must make. */
const STREAMS: Record<string, LanguageModelV4StreamPart[]> = {
  'text only': [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'The total is ' },
    { type: 'text-delta', id: 't', delta: '1,250.00 EUR.' },
    { type: 'text-end', id: 't' },
    finish('stop'),
  ],
  'Anthropic thinking with its signature, then a tool call': [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-start', id: 'r' },
    { type: 'reasoning-delta', id: 'r', delta: 'I should read the text first.' },
    { type: 'reasoning-delta', id: 'r', delta: '', providerMetadata: { anthropic: { signature: 'sig-abc-123' } } },
    { type: 'reasoning-end', id: 'r' },
    { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_ocr_text', input: '{"page":1}' },
    finish('tool-calls'),
  ],
  'an OpenAI reasoning item, a message and a call, each with its item id': [
    { type: 'stream-start', warnings: [] },
    { type: 'reasoning-start', id: 'rs_1:0', providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: null } } },
    { type: 'reasoning-delta', id: 'rs_1:0', delta: 'Reading first.' },
    {
      type: 'reasoning-end',
      id: 'rs_1:0',
      providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'enc-xyz' } },
    },
    { type: 'text-start', id: 'msg_1', providerMetadata: { openai: { itemId: 'msg_1' } } },
    { type: 'text-delta', id: 'msg_1', delta: 'Let me look.' },
    { type: 'text-end', id: 'msg_1', providerMetadata: { openai: { itemId: 'msg_1' } } },
    {
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'get_ocr_text',
      input: '{}',
      providerMetadata: { openai: { itemId: 'fc_1' } },
    },
    finish('tool-calls'),
  ],
  'a call of an unknown tool': [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'call_2', toolName: 'delete_everything', input: '{}' },
    finish('tool-calls'),
  ],
  'a call whose JSON needs repair': [
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'call_3', toolName: 'get_ocr_text', input: '{"page": 2,}' },
    finish('tool-calls'),
  ],
  'an empty answer': [{ type: 'stream-start', warnings: [] }, finish('stop')],
};

for (const [name, parts] of Object.entries(STREAMS)) {
  test(`a step's assistant message is the one streamText makes: ${name}`, async () => {
    const outcome = await runStep(stepInput({ model: modelOf(parts) }));
    const reference = streamText({
      model: modelOf(parts),
      system: 'You read documents.',
      messages: [{ role: 'user', content: 'What is the total?' }],
      tools,
      experimental_repairToolCall: async ({ toolCall }) => ({ ...toolCall, input: '{"page":2}' }),
    });
    await reference.consumeStream();
    // streamText answers a call it could not parse with a tool message of its own; the engine
    // answers every call itself (tool-batch), so a step keeps the assistant's message only.
    const assistant = (await reference.response).messages.filter((message) => message.role === 'assistant');
    assert.deepEqual(JSON.parse(JSON.stringify(outcome.responseMessages)), JSON.parse(JSON.stringify(assistant)));
    assert.deepEqual(outcome.usage?.inputTokens, 10);
  });
}

test('a step streams its text and thinking and collects its calls, repaired or marked invalid', async () => {
  const emitted: string[] = [];
  const thinking = await runStep(
    stepInput({
      model: modelOf(STREAMS['Anthropic thinking with its signature, then a tool call'] ?? []),
      emit: async (event) => {
        emitted.push(event.type);
      },
    }),
  );
  assert.equal(thinking.thinking, 'I should read the text first.');
  assert.deepEqual(thinking.toolCalls, [{ id: 'toolu_1', name: 'get_ocr_text', input: { page: 1 }, invalid: undefined }]);
  assert.ok(emitted.includes('thinking_chunk'));
  const repaired = await runStep(stepInput({ model: modelOf(STREAMS['a call whose JSON needs repair'] ?? []) }));
  assert.deepEqual(repaired.toolCalls[0]?.input, { page: 2 });
  const unknown = await runStep(stepInput({ model: modelOf(STREAMS['a call of an unknown tool'] ?? []) }));
  assert.match(unknown.toolCalls[0]?.invalid ?? '', /could not be used/);
});

test('the tools reach the model without the JSON Schema draft marker, and their arguments are still checked', async () => {
  const toolSet = toolSetOf(
    new ToolRegistry([
      defineTool({
        name: 'get_ocr_text',
        description: 'Reads the text.',
        input: z.strictObject({ page: z.number().int().min(1).describe('From 1') }),
        access: 'read_only',
        run: async () => ({ text: '' }),
      }),
    ]),
  );
  const model = modelOf([
    { type: 'stream-start', warnings: [] },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'get_ocr_text', input: '{"page": 0}' },
    finish('tool-calls'),
  ]);
  const step = await runStep(stepInput({ model, tools: toolSet }));
  const sent = model.doStreamCalls[0]?.tools ?? [];
  assert.deepEqual(
    sent.map((t) => t.name),
    ['get_ocr_text', 'request_input'],
  );
  for (const t of sent) {
    assert.ok(t.type === 'function' && !('$schema' in t.inputSchema), JSON.stringify(t));
  }
  const ocr = sent[0];
  assert.ok(ocr?.type === 'function');
  assert.deepEqual(ocr.inputSchema.properties, {
    page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'From 1' },
  });
  assert.match(step.toolCalls[0]?.invalid ?? '', /page/);
});

/** A model that fails to start `failures` times with this error, then answers. */
function failingThen(failures: number, error: () => Error) {
  let calls = 0;
  const model = new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      if (calls <= failures) throw error();
      return { stream: convertArrayToReadableStream(STREAMS['text only'] ?? []) };
    },
  });
  return { model, calls: () => calls };
}

const overloaded = () =>
  new APICallError({
    message: 'Overloaded',
    url: 'http://provider.test/v1/responses',
    requestBodyValues: {},
    statusCode: 503,
    responseHeaders: { 'retry-after-ms': '1' },
    isRetryable: true,
  });

test('a call that fails to start is tried again, up to maxRetries times', async () => {
  const recovering = failingThen(2, overloaded);
  const outcome = await runStep(stepInput({ model: recovering.model, maxRetries: 2 }));
  assert.equal(outcome.text, 'The total is 1,250.00 EUR.');
  assert.equal(recovering.calls(), 3);

  const failing = failingThen(5, overloaded);
  const error = await runStep(stepInput({ model: failing.model, maxRetries: 1 })).catch((caught: unknown) => caught);
  assert.ok(RetryError.isInstance(error), String(error));
  assert.equal(error.errors.length, 2);
  assert.equal(failing.calls(), 2);

  const refused = failingThen(
    5,
    () =>
      new APICallError({
        message: 'Bad request',
        url: 'http://provider.test/v1/responses',
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      }),
  );
  await assert.rejects(runStep(stepInput({ model: refused.model, maxRetries: 2 })), (caught: unknown) => {
    return APICallError.isInstance(caught) && caught.statusCode === 400;
  });
  assert.equal(refused.calls(), 1, 'an error that will not change is not tried again');
});

test("a retry waits for the provider's Retry-After when it is under a minute, else for the backoff", () => {
  const withHeaders = (headers: Record<string, string>) =>
    new APICallError({ message: 'x', url: 'u', requestBodyValues: {}, responseHeaders: headers, isRetryable: true });
  assert.equal(retryDelayMs({ error: withHeaders({ 'retry-after-ms': '1500' }), exponentialBackoffDelay: 2000 }), 1500);
  assert.equal(retryDelayMs({ error: withHeaders({ 'retry-after': '3' }), exponentialBackoffDelay: 2000 }), 3000);
  assert.equal(retryDelayMs({ error: withHeaders({ 'retry-after': '600' }), exponentialBackoffDelay: 2000 }), 2000);
  const inAnHour = new Date(Date.now() + 3_600_000).toUTCString();
  assert.equal(retryDelayMs({ error: withHeaders({ 'retry-after': inAnHour }), exponentialBackoffDelay: 2000 }), 2000);
  assert.equal(retryDelayMs({ error: withHeaders({}), exponentialBackoffDelay: 4000 }), 4000);
  assert.equal(retryDelayMs({ error: new Error('socket hang up'), exponentialBackoffDelay: 2000 }), 2000);
});

/** A model that starts answering and then waits, until the call is aborted. */
function hanging() {
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'Working on it' });
          abortSignal?.addEventListener('abort', () => controller.error(abortSignal.reason));
        },
      }),
    }),
  });
}

/** Stops the step once its first text has come. */
function stopOnFirstText(stop: AbortController) {
  return async (event: { type: string }) => {
    if (event.type === 'assistant_text_chunk') stop.abort(new DOMException('The turn was stopped.', 'AbortError'));
  };
}

test('a call past its time limit ends with a TimeoutError; a stopped one with the stop', async () => {
  await assert.rejects(runStep(stepInput({ model: hanging(), timeoutMs: 20 })), { name: 'TimeoutError' });
  const slowToRetry = () =>
    new APICallError({
      message: 'Overloaded',
      url: 'http://provider.test/v1/responses',
      requestBodyValues: {},
      statusCode: 503,
      responseHeaders: { 'retry-after': '30' },
      isRetryable: true,
    });
  await assert.rejects(
    runStep(stepInput({ model: failingThen(1, slowToRetry).model, maxRetries: 2, timeoutMs: 20 })),
    { name: 'TimeoutError' },
    'the time limit reached while waiting to retry is the time limit, not a stop',
  );
  const stop = new AbortController();
  await assert.rejects(runStep(stepInput({ model: hanging(), abortSignal: stop.signal, emit: stopOnFirstText(stop) })), {
    name: 'AbortError',
  });
  const model = hanging();
  await assert.rejects(runStep(stepInput({ model, abortSignal: stop.signal })), { name: 'AbortError' });
  assert.equal(model.doStreamCalls.length, 0, 'a stopped turn does not call the provider');
});

test("a call's warnings go to the AI SDK's warning logger, as streamText sent them", async (t) => {
  const logged: unknown[] = [];
  const before = globalThis.AI_SDK_LOG_WARNINGS;
  globalThis.AI_SDK_LOG_WARNINGS = (options) => logged.push(options);
  t.after(() => {
    globalThis.AI_SDK_LOG_WARNINGS = before;
  });
  const warning = { type: 'unsupported' as const, feature: 'temperature', details: 'ignored by this model' };
  const parts = (STREAMS['text only'] ?? []).map((part) =>
    part.type === 'stream-start' ? { ...part, warnings: [warning] } : part,
  );
  await runStep(stepInput({ model: modelOf(parts) }));
  assert.deepEqual(logged, [{ warnings: [warning], provider: 'openai', model: 'gpt-4.1-mini' }]);
});
