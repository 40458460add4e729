import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, Output, streamText } from 'ai';
import { DEMO_TEXT } from '../src/index.ts';

const cliPath = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

let child: ChildProcess;
let baseUrl: string;

before(async () => {
  child = spawn(process.execPath, [cliPath, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = /base URL (\S+)\)/.exec(line);
    if (match) {
      baseUrl = match[1]!;
      break;
    }
  }
  assert.ok(baseUrl, 'the CLI printed its base URL');
});

after(async () => {
  if (child.exitCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
});

const schema = jsonSchema<{ name: string; count: number; ok: boolean; items: string[] }>({
  type: 'object',
  properties: {
    name: { type: 'string' },
    count: { type: 'integer' },
    ok: { type: 'boolean' },
    items: { type: 'array', items: { type: 'string' } },
  },
  required: ['name', 'count', 'ok', 'items'],
  additionalProperties: false,
});

test('the CLI answers plain requests with a fixed text', async () => {
  const model = createOpenAI({ baseURL: baseUrl, apiKey: 'test' })('gpt-5-mini');
  const result = await generateText({ model, prompt: 'hi', maxRetries: 0 });
  assert.equal(result.text, DEMO_TEXT);
});

test('the CLI answers structured-output requests with a value matching the schema, in every protocol', async () => {
  const expected = { name: 'example', count: 0, ok: false, items: [] };
  const models = [
    createOpenAI({ baseURL: baseUrl, apiKey: 'test' })('gpt-5-mini'),
    createOpenAICompatible({ name: 'local', baseURL: baseUrl, apiKey: 'test', supportsStructuredOutputs: true })('local'),
    createAnthropic({ baseURL: baseUrl, apiKey: 'test' })('claude-sonnet-4-5'),
    createAnthropic({ baseURL: baseUrl, apiKey: 'test' })('claude-3-haiku-20240307'),
  ];
  for (const model of models) {
    const generated = await generateText({ model, prompt: 'json', output: Output.object({ schema }), maxRetries: 0 });
    assert.deepEqual(generated.output, expected);
    const streamed = streamText({ model, prompt: 'json', output: Output.object({ schema }), maxRetries: 0 });
    assert.deepEqual(await streamed.output, expected);
  }
});
