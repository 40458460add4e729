import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, InvalidToolInputError, type JSONSchema7, jsonSchema, Output, streamText, tool } from 'ai';
import { demoHandler, type FakeLlmServer } from '../src/index.ts';
import { collect, fakeServerPerFile, protocolCases } from './helpers.ts';

const LONG_TEXT =
  'The quick brown fox jumps over the lazy dog — café, 日本語, emoji 🦊🐶, "quotes" and \\ backslashes.\nSecond line.';

const CUT_TEXT = LONG_TEXT.repeat(5);

interface WeatherInput {
  city: string;
  days: number;
}

function isWeatherInput(value: unknown): value is WeatherInput {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.city === 'string' && Number.isInteger(record.days);
}

const weatherTool = tool({
  description: 'Look up the weather',
  inputSchema: jsonSchema<WeatherInput>(
    {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' } },
      required: ['city', 'days'],
      additionalProperties: false,
    },
    {
      // Anthropic's non-streaming API returns tool input as parsed JSON, so a malformed argument string reaches the
      // SDK as a JSON *string* value: only schema validation can reject it there.
      validate: (value) =>
        isWeatherInput(value) ? { success: true, value } : { success: false, error: new Error('not a weather input') },
    },
  ),
});

const quiet = { onError: () => {} };

const answerSchema = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    score: { type: 'number' },
    done: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
  },
  required: ['title', 'score', 'done', 'tags', 'note'],
  additionalProperties: false,
} satisfies JSONSchema7;

interface Answer {
  title: string;
  score: number;
  done: boolean;
  tags: string[];
  note: string | null;
}

let server: FakeLlmServer;
fakeServerPerFile((started) => {
  server = started;
});

for (const c of protocolCases) {
  describe(c.protocol, () => {
    for (const mode of ['generate', 'stream'] as const) {
      const streaming = mode === 'stream';

      describe(mode, () => {
        test('a text answer arrives intact, with the requested model echoed', async () => {
          server.enqueue({ text: LONG_TEXT });
          if (streaming) {
            const result = streamText({ model: c.model(server), prompt: 'hello', maxRetries: 0 });
            assert.equal(await result.text, LONG_TEXT);
            assert.equal(await result.finishReason, 'stop');
            assert.equal((await result.response).modelId, c.modelId);
          } else {
            const result = await generateText({ model: c.model(server), prompt: 'hello', maxRetries: 0 });
            assert.equal(result.text, LONG_TEXT);
            assert.equal(result.finishReason, 'stop');
            assert.equal(result.response.modelId, c.modelId);
          }
          assert.equal(server.requests.length, 1);
          const request = server.requests[0]!;
          assert.equal(request.protocol, c.protocol);
          assert.equal(request.path, c.path);
          assert.equal(request.stream, streaming);
          assert.equal(request.body.model, c.modelId);
          assert.ok(JSON.stringify(request.body).includes('hello'));
        });

        test('a tool call arrives with its parsed input', async () => {
          server.enqueue({ toolCalls: [{ id: 'call_abc123', name: 'weather', arguments: { city: 'Zürich', days: 3 } }] });
          const options = { model: c.model(server), prompt: 'weather?', tools: { weather: weatherTool }, maxRetries: 0 };
          let toolCalls: { toolCallId: string; toolName: string; input: unknown; invalid?: boolean }[];
          let finishReason: string;
          if (streaming) {
            const result = streamText(options);
            const parts = await collect(result.fullStream);
            const deltas = parts.filter((part) => part.type === 'tool-input-delta');
            assert.ok(deltas.length >= 2, `expected several argument deltas, got ${deltas.length}`);
            toolCalls = await result.toolCalls;
            finishReason = await result.finishReason;
          } else {
            const result = await generateText(options);
            toolCalls = result.toolCalls;
            finishReason = result.finishReason;
          }
          assert.equal(finishReason, 'tool-calls');
          assert.equal(toolCalls.length, 1);
          assert.equal(toolCalls[0]!.toolCallId, 'call_abc123');
          assert.equal(toolCalls[0]!.toolName, 'weather');
          assert.deepEqual(toolCalls[0]!.input, { city: 'Zürich', days: 3 });
          assert.notEqual(toolCalls[0]!.invalid, true);
          assert.ok(JSON.stringify(server.requests[0]!.body.tools).includes('weather'));
        });

        test('usage numbers map through', async () => {
          server.enqueue({
            text: 'ok',
            usage: { inputTokens: 1200, outputTokens: 345, cachedTokens: 1000, reasoningTokens: 45 },
          });
          const usage = streaming
            ? await streamText({ model: c.model(server), prompt: 'u', maxRetries: 0 }).usage
            : (await generateText({ model: c.model(server), prompt: 'u', maxRetries: 0 })).usage;
          assert.equal(usage.inputTokens, 1200);
          assert.equal(usage.outputTokens, 345);
          assert.equal(usage.totalTokens, 1545);
          assert.equal(usage.inputTokenDetails.cacheReadTokens, 1000);
          assert.equal(usage.inputTokenDetails.noCacheTokens, 200);
          assert.equal(usage.outputTokenDetails.reasoningTokens, 45);
          assert.equal(usage.outputTokenDetails.textTokens, 300);
        });

        test('reasoning text arrives', async () => {
          server.enqueue({ reasoning: { text: 'Let me think about this step by step.', signature: 'sig-123' }, text: 'Answer.' });
          const options = { model: c.model(server), prompt: 'think', maxRetries: 0 };
          const result = streaming ? streamText(options) : await generateText(options);
          assert.equal(await result.text, 'Answer.');
          assert.equal(await result.reasoningText, 'Let me think about this step by step.');
          const reasoning = await result.reasoning;
          assert.equal(reasoning.length, 1);
          if (c.protocol === 'anthropic-messages') {
            assert.equal(reasoning[0]!.providerMetadata?.anthropic?.signature, 'sig-123');
          }
          if (c.protocol === 'openai-responses') {
            assert.match(String(reasoning[0]!.providerMetadata?.openai?.itemId), /^rs_/);
          }
        });

        for (const status of [429, 500]) {
          test(`a ${status} surfaces as APICallError with that status`, async () => {
            server.enqueue({
              kind: 'error',
              status,
              message: `scripted ${status}`,
              retryAfterSeconds: status === 429 ? 7 : undefined,
            });
            let error: unknown;
            if (streaming) {
              const parts = await collect(
                streamText({ model: c.model(server), prompt: 'x', maxRetries: 0, ...quiet }).fullStream,
              );
              error = parts.find((part) => part.type === 'error')?.error;
            } else {
              error = await generateText({ model: c.model(server), prompt: 'x', maxRetries: 0 }).then(
                () => undefined,
                (thrown: unknown) => thrown,
              );
            }
            assert.ok(APICallError.isInstance(error), `expected APICallError, got ${String(error)}`);
            assert.equal(error.statusCode, status);
            assert.equal(error.isRetryable, true);
            assert.match(error.message, new RegExp(`scripted ${status}`));
            if (status === 429) assert.equal(error.responseHeaders?.['retry-after'], '7');
            const body = JSON.parse(error.responseBody ?? '{}');
            if (c.protocol === 'anthropic-messages') {
              assert.equal(body.type, 'error');
              assert.equal(body.error.type, status === 429 ? 'rate_limit_error' : 'api_error');
            } else {
              assert.equal(body.error.message, `scripted ${status}`);
            }
            assert.equal(server.requests.length, 1, 'the request is recorded even though it failed');
          });
        }

        test('a malformed tool-call argument string yields an invalid tool call', async () => {
          server.enqueue({ toolCalls: [{ name: 'weather', arguments: '{"city": "Bern", "days": ' }] });
          const options = { model: c.model(server), prompt: 'weather?', tools: { weather: weatherTool }, maxRetries: 0 };
          const toolCalls = streaming ? await streamText(options).toolCalls : (await generateText(options)).toolCalls;
          assert.equal(toolCalls.length, 1);
          const call = toolCalls[0]!;
          assert.equal(call.toolName, 'weather');
          assert.equal(call.invalid, true);
          assert.ok(InvalidToolInputError.isInstance(call.error), `expected InvalidToolInputError, got ${String(call.error)}`);
        });

        test('structured output: the request carries the JSON schema and the answer parses', async () => {
          server.setHandler(demoHandler);
          const output = Output.object({ schema: jsonSchema<Answer>(answerSchema) });
          const options = { model: c.model(server), prompt: 'structured', output, maxRetries: 0 };
          const value = streaming ? await streamText(options).output : (await generateText(options)).output;
          assert.deepEqual(value, { title: 'example', score: 0, done: false, tags: [], note: 'example' });
          const body = server.requests[0]!.body;
          const schema =
            c.protocol === 'openai-responses'
              ? body.text.format.schema
              : c.protocol === 'openai-chat'
                ? body.response_format.json_schema.schema
                : body.output_config.format.schema;
          assert.deepEqual(Object.keys(schema.properties).sort(), ['done', 'note', 'score', 'tags', 'title']);
          assert.deepEqual([...schema.required].sort(), ['done', 'note', 'score', 'tags', 'title']);
        });
      });
    }

    test('a cut stream makes streamText report an error', async () => {
      // enough events for some text deltas to arrive in every protocol, far fewer than the whole answer needs
      server.enqueue({ text: CUT_TEXT, cutAfterEvents: 7 });
      const result = streamText({ model: c.model(server), prompt: 'cut', maxRetries: 0, ...quiet });
      // ai@7: a broken connection after the response started errors the stream itself (iteration throws an
      // APICallError "Failed to process successful response" caused by undici's "terminated"); it is not an error part.
      let reported: unknown;
      let text = '';
      try {
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') text += part.text;
          if (part.type === 'error') reported ??= part.error;
        }
      } catch (error) {
        reported ??= error;
      }
      assert.ok(reported, 'the stream reports an error');
      assert.ok(text.length > 0, 'some text arrived before the cut');
      assert.ok(CUT_TEXT.startsWith(text) && text !== CUT_TEXT, 'the text is a strict prefix');
      await assert.rejects(async () => result.text);
      assert.equal(server.requests.length, 1);
      assert.equal(server.requests[0]!.stream, true);
    });
  });
}

describe('anthropic-messages JSON tool mode', () => {
  test('structured output through the `json` tool', async () => {
    // claude-3-haiku has no native structured outputs, so the SDK falls back to a forced `json` tool
    const legacy = createAnthropic({ baseURL: server.baseUrl, apiKey: 'test' })('claude-3-haiku-20240307');
    for (const streaming of [false, true]) {
      server.reset();
      server.setHandler(demoHandler);
      const output = Output.object({ schema: jsonSchema<Answer>(answerSchema) });
      const options = { model: legacy, prompt: 'structured', output, maxRetries: 0 };
      const value = streaming ? await streamText(options).output : (await generateText(options)).output;
      assert.deepEqual(value, { title: 'example', score: 0, done: false, tags: [], note: 'example' });
      const body = server.requests[0]!.body;
      const jsonTool = body.tools.find((candidate: { name: string }) => candidate.name === 'json');
      assert.ok(jsonTool, 'the request carries the json tool');
      assert.deepEqual([...jsonTool.input_schema.required].sort(), ['done', 'note', 'score', 'tags', 'title']);
    }
  });
});

describe('token log-probabilities, when the request asks for them', () => {
  const openai = () => createOpenAI({ baseURL: server.baseUrl, apiKey: 'test' });
  const models = {
    'openai-responses': () => openai()('gpt-4.1-mini'),
    'openai-chat': () => openai().chat('gpt-4.1-mini'),
  };
  for (const [protocol, model] of Object.entries(models)) {
    test(`${protocol}: tokens spelling the answer, the scripted text unsure, the rest certain`, async () => {
      const text = '{"vendor":"Acme GmbH","total":1234.5}';
      server.enqueue({ text, logprobs: { 'Acme GmbH': -0.5 } }, { text });
      const asked = await generateText({
        model: model(),
        prompt: 'x',
        maxRetries: 0,
        providerOptions: { openai: { logprobs: 1 } },
      });
      const reported = asked.providerMetadata?.openai?.logprobs as unknown[];
      const tokens = reported.flat() as Array<{ token: string; logprob: number; top_logprobs: unknown[] }>;
      assert.equal(tokens.map((t) => t.token).join(''), text);
      const unsure = tokens.filter((t) => t.logprob !== 0);
      assert.deepEqual(
        unsure.map((t) => [t.token, t.logprob]),
        [['Acme', -0.5]],
      );
      assert.ok(tokens.every((t) => t.top_logprobs.length === 1));

      const plain = await generateText({ model: model(), prompt: 'x', maxRetries: 0 });
      assert.equal(plain.providerMetadata?.openai?.logprobs, undefined, 'none unless asked');
    });
  }
});
