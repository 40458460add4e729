import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FakeLlmServer, RecordedRequest } from '../src/index.ts';
import { fakeServerPerFile } from './helpers.ts';

let server: FakeLlmServer;
fakeServerPerFile((started) => {
  server = started;
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read response JSON field by field
async function json(response: Response): Promise<any> {
  return response.json();
}

interface RawEvent {
  event: string | undefined;
  data: string;
}

function parseSse(text: string): RawEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length) ?? '';
      return { event, data };
    });
}

describe('server', () => {
  test('url and baseUrl', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(server.baseUrl, `${server.url}/v1`);
  });

  test('no reply left → 500 naming the protocol, in each provider error shape', async () => {
    const responses = await post('/responses', { model: 'm', input: 'x' });
    assert.equal(responses.status, 500);
    assert.equal((await json(responses)).error.message, 'fake-llm: no scripted reply left for openai-responses request');

    const chat = await post('/chat/completions', { model: 'm', messages: [] });
    assert.equal(chat.status, 500);
    assert.equal((await json(chat)).error.message, 'fake-llm: no scripted reply left for openai-chat request');

    const messages = await post('/messages', { model: 'm', messages: [] });
    assert.equal(messages.status, 500);
    const body = await json(messages);
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'api_error');
    assert.equal(body.error.message, 'fake-llm: no scripted reply left for anthropic-messages request');
    assert.equal(server.requests.length, 3);
  });

  test('malformed JSON → 400, not recorded', async () => {
    const response = await post('/chat/completions', '{"model": ');
    assert.equal(response.status, 400);
    assert.match((await json(response)).error.message, /malformed JSON/);
    const anthropic = await post('/messages', 'nope');
    assert.equal(anthropic.status, 400);
    assert.equal((await json(anthropic)).error.type, 'invalid_request_error');
    assert.equal(server.requests.length, 0);
  });

  test('bodies over 20 MB → 413', async () => {
    server.enqueue({ text: 'never sent' });
    const big = JSON.stringify({ model: 'm', input: 'x'.repeat(20 * 1024 * 1024 + 1) });
    const response = await post('/responses', big);
    assert.equal(response.status, 413);
    assert.match((await json(response)).error.message, /exceeds/);
    assert.equal(server.requests.length, 0);
    // the scripted reply is still there for the next request
    const next = await post('/responses', { model: 'm', input: 'small' });
    assert.equal(next.status, 200);
  });

  test('GET /v1/models lists a model; unknown routes → 404', async () => {
    const models = await fetch(`${server.baseUrl}/models`);
    assert.equal(models.status, 200);
    const body = await json(models);
    assert.equal(body.object, 'list');
    assert.equal(body.data[0].object, 'model');
    const missing = await fetch(`${server.url}/nope`);
    assert.equal(missing.status, 404);
  });

  test('the queue is FIFO and shared by all protocols; the handler answers when it is empty', async () => {
    server.enqueue({ text: 'first' }, { text: 'second' });
    const seen: RecordedRequest[] = [];
    server.setHandler(async (request) => {
      seen.push(request);
      return { text: `handled ${request.protocol}` };
    });
    const a = await json(await post('/messages', { model: 'claude', messages: [], max_tokens: 10 }));
    assert.equal(a.content[0].text, 'first');
    assert.equal(a.model, 'claude');
    const b = await json(await post('/chat/completions', { model: 'gpt', messages: [] }));
    assert.equal(b.choices[0].message.content, 'second');
    assert.equal(b.model, 'gpt');
    const c = await json(await post('/responses', { model: 'gpt-5', input: 'x' }));
    assert.equal(c.output[0].content[0].text, 'handled openai-responses');
    assert.equal(c.model, 'gpt-5');
    assert.equal(seen.length, 1);
    assert.equal(server.requests.length, 3);
  });

  test('requests are recorded before answering, with headers', async () => {
    server.setHandler((request) => {
      assert.equal(server.requests.at(-1), request);
      return { kind: 'error', status: 503, message: 'down' };
    });
    const response = await post(
      '/messages',
      { model: 'claude', messages: [{ role: 'user', content: 'hi' }] },
      { 'x-api-key': 'secret' },
    );
    assert.equal(response.status, 503);
    assert.equal(server.requests.length, 1);
    const request = server.requests[0]!;
    assert.equal(request.protocol, 'anthropic-messages');
    assert.equal(request.path, '/v1/messages');
    assert.equal(request.headers['x-api-key'], 'secret');
    assert.equal(request.body.messages[0].content, 'hi');
    assert.equal(request.stream, false);
  });

  test('a throwing handler → 500 with its message', async () => {
    server.setHandler(() => {
      throw new Error('boom');
    });
    const response = await post('/responses', { model: 'm', input: 'x' });
    assert.equal(response.status, 500);
    assert.match((await json(response)).error.message, /handler threw: boom/);
  });

  test('error replies: provider body shapes, status and retry-after', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'slow down', retryAfterSeconds: 3 },
      { kind: 'error', status: 429, message: 'slow down' },
      { kind: 'error', status: 401, message: 'bad key' },
    );
    const openai = await post('/responses', { model: 'm', input: 'x', stream: true });
    assert.equal(openai.status, 429);
    assert.equal(openai.headers.get('retry-after'), '3');
    assert.deepEqual(await json(openai), {
      error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    const anthropic = await post('/messages', { model: 'm', messages: [] });
    assert.equal(anthropic.status, 429);
    assert.equal(anthropic.headers.get('retry-after'), null);
    const body = await json(anthropic);
    assert.deepEqual(body.error, { type: 'rate_limit_error', message: 'slow down' });
    const unauthorized = await post('/messages', { model: 'm', messages: [] });
    assert.equal(unauthorized.status, 401);
    assert.equal((await json(unauthorized)).error.type, 'authentication_error');
  });

  test('reset clears queue, requests and handler (keeping the same requests array)', async () => {
    const requests = server.requests;
    server.enqueue({ text: 'queued' });
    server.setHandler(() => ({ text: 'handled' }));
    await post('/chat/completions', { model: 'm', messages: [] });
    assert.equal(requests.length, 1);
    server.enqueue({ text: 'left over' });
    server.reset();
    assert.equal(server.requests, requests);
    assert.equal(requests.length, 0);
    const response = await post('/chat/completions', { model: 'm', messages: [] });
    assert.equal(response.status, 500);
  });
});

describe('raw streams', () => {
  test('OpenAI Responses: event names, sequence numbers, final response', async () => {
    server.enqueue({
      reasoning: { text: 'hmm, let me see' },
      text: 'Hello world, how are you?',
      toolCalls: [{ name: 'f', arguments: { a: 1 } }],
    });
    const response = await post('/responses', { model: 'gpt-5', input: 'x', stream: true });
    assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const events = parseSse(await response.text());
    const names = events.map((event) => event.event);
    assert.equal(names[0], 'response.created');
    assert.equal(names[1], 'response.in_progress');
    assert.equal(names.at(-1), 'response.completed');
    for (const name of [
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_part.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
    ]) {
      assert.ok(names.includes(name), `missing ${name}`);
    }
    const data = events.map((event) => JSON.parse(event.data));
    data.forEach((item, index) => {
      assert.equal(item.type, names[index]);
      assert.equal(item.sequence_number, index);
    });
    assert.ok(names.filter((name) => name === 'response.output_text.delta').length >= 3);
    const completed = data.at(-1).response;
    assert.equal(completed.status, 'completed');
    assert.equal(completed.model, 'gpt-5');
    assert.deepEqual(
      completed.output.map((item: { type: string }) => item.type),
      ['reasoning', 'message', 'function_call'],
    );
    assert.equal(completed.output[2].arguments, '{"a":1}');
    assert.equal(typeof completed.usage.input_tokens, 'number');
  });

  test('Chat Completions: data-only chunks, usage only when asked, [DONE] last', async () => {
    server.enqueue(
      { text: 'Hello there', usage: { inputTokens: 5, outputTokens: 2 } },
      { text: 'Hello there', reasoning: { text: 'why' } },
    );
    const withUsage = parseSse(
      await (
        await post('/chat/completions', { model: 'm', messages: [], stream: true, stream_options: { include_usage: true } })
      ).text(),
    );
    assert.ok(withUsage.every((event) => event.event === undefined));
    assert.equal(withUsage.at(-1)!.data, '[DONE]');
    const usageChunk = JSON.parse(withUsage.at(-2)!.data);
    assert.deepEqual(usageChunk.choices, []);
    assert.equal(usageChunk.usage.prompt_tokens, 5);
    assert.equal(usageChunk.usage.completion_tokens, 2);
    const finish = JSON.parse(withUsage.at(-3)!.data);
    assert.equal(finish.choices[0].finish_reason, 'stop');

    const withoutUsage = parseSse(await (await post('/chat/completions', { model: 'm', messages: [], stream: true })).text());
    const chunks = withoutUsage.slice(0, -1).map((event) => JSON.parse(event.data));
    assert.ok(chunks.every((chunk) => chunk.usage === undefined && chunk.choices.length === 1));
    assert.equal(chunks.map((chunk) => chunk.choices[0].delta.reasoning_content ?? '').join(''), 'why');
    assert.equal(chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join(''), 'Hello there');
  });

  test('Anthropic Messages: event sequence with thinking, signature and tool_use', async () => {
    server.enqueue({ reasoning: { text: 'thinking...' }, toolCalls: [{ id: 'toolu_1', name: 'f', arguments: { q: 'x' } }] });
    const events = parseSse(await (await post('/messages', { model: 'claude', messages: [], stream: true })).text());
    const names = events.map((event) => event.event);
    assert.equal(names[0], 'message_start');
    assert.equal(names.at(-2), 'message_delta');
    assert.equal(names.at(-1), 'message_stop');
    assert.ok(names.includes('ping'));
    const data = events.map((event) => JSON.parse(event.data));
    data.forEach((item, index) => {
      assert.equal(item.type, names[index]);
    });
    const deltas = data.filter((item) => item.type === 'content_block_delta').map((item) => item.delta);
    assert.ok(deltas.some((delta) => delta.type === 'signature_delta' && delta.signature.length > 0));
    assert.equal(
      deltas
        .filter((delta) => delta.type === 'input_json_delta')
        .map((delta) => delta.partial_json)
        .join(''),
      '{"q":"x"}',
    );
    assert.equal(data.at(-2).delta.stop_reason, 'tool_use');
  });

  test('cutAfterEvents never sends the terminal event and breaks the connection', async () => {
    server.enqueue({ text: 'short', cutAfterEvents: 1000 });
    const response = await post('/messages', { model: 'claude', messages: [], stream: true });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    });
    const names = parseSse(text).map((event) => event.event);
    assert.ok(names.includes('message_delta'));
    assert.ok(!names.includes('message_stop'));
  });
});
