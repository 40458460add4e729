import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createPrompt, createSchema, createTag, getTag } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, type FakeReply, heldReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let docId: string;
let otherDocId: string;

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 1,250.00 EUR';
const base = (org = alice.org.id, doc = docId) => `/v0/orgs/${org}/documents/${doc}/chat`;
const post = (url: string, payload: object, token = alice.token) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const get = (url: string, token = alice.token, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

type Turn = {
  turn_id?: string;
  text: string;
  tool_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  working_state: Record<string, unknown>;
  executed_rounds: unknown[];
  stopped?: string;
};

const responseFormat = strictResponseFormat({ invoice_number: { type: 'string' }, total: { type: 'number' } });

/** The JSON outputs of the tool calls an OpenAI Responses request replays, in order. */
const toolOutputs = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string; output?: string }>)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => JSON.parse(item.output ?? 'null'));
const isExtraction = (r: RecordedRequest) => Boolean(r.body.text?.format?.schema);
const isAgentRequest = (r: RecordedRequest) => !isExtraction(r) && Boolean(r.body.tools);
const agentRequests = () => fake.requests.filter(isAgentRequest);
const summaryOrExtraction = (r: RecordedRequest): FakeReply =>
  isExtraction(r)
    ? { text: JSON.stringify({ invoice_number: '2024-117', total: 1250 }) }
    : { text: '{"summary": "An invoice."}' };

/**
 * Uploads a document and waits for its background extraction, so that no job of it reaches the
 * fake provider during a later test (where it would take that test's scripted reply).
 */
async function uploadReady(name: string, member = alice): Promise<string> {
  const res = await post(
    `/v0/orgs/${member.org.id}/documents`,
    { documents: [{ name, content: Buffer.from(INVOICE).toString('base64') }] },
    member.token,
  );
  const id = json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id ?? '';
  const deadline = Date.now() + 60_000;
  for (;;) {
    const doc = json<{ state: string }>(
      await get(`/v0/orgs/${member.org.id}/documents/${id}?include_content=false`, member.token),
    );
    if (doc.state === 'llm_completed' || doc.state === 'llm_failed') return id;
    assert.ok(Date.now() < deadline, `document still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Parses an SSE body into frames with their ids. */
function framesOf(body: string): Array<{ id: number; data: { type: string } & Record<string, unknown> }> {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const id = Number(/^id: (\d+)$/m.exec(block)?.[1]);
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}');
      return { id, data };
    });
}

before(async () => {
  fake = await startFakeLlm();
  fake.setHandler(summaryOrExtraction);
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  docId = await uploadReady('invoice.txt');
  otherDocId = await uploadReady('other.txt');
});
beforeEach(() => {
  fake.reset();
  fake.setHandler(summaryOrExtraction);
});
after(async () => {
  await t.close();
  await fake.close();
});

describe('a conversation with approvals (OpenAI-style model)', () => {
  test('creates a schema and a prompt, runs the extraction and patches a field', async () => {
    fake.setHandler((r) => {
      if (isExtraction(r)) return summaryOrExtraction(r);
      const outputs = toolOutputs(r);
      switch (outputs.length) {
        case 0:
          return {
            text: 'I will create a schema.',
            toolCalls: [{ name: 'create_schema', arguments: { name: 'Invoice', response_format: responseFormat } }],
          };
        case 1:
          return {
            toolCalls: [
              {
                name: 'create_prompt',
                arguments: {
                  name: 'Invoice fields',
                  content: 'Extract the invoice number and total.',
                  schema_id: outputs[0].schema_id,
                },
              },
            ],
          };
        case 2:
          return { toolCalls: [{ name: 'run_extraction', arguments: {} }] };
        case 3:
          return { toolCalls: [{ name: 'update_extraction_field', arguments: { path: 'total', value: 99 } }] };
        default:
          return { text: 'Done: the total is now 99.' };
      }
    });
    let turn = json<Turn>(
      await post(base(), { messages: [{ role: 'user', content: 'Extract this invoice.' }], model: 'openai:gpt-4.1-mini' }),
    );
    const seen: string[] = [];
    while (turn.turn_id) {
      const call = turn.tool_calls?.[0];
      assert.ok(call, JSON.stringify(turn));
      seen.push(call.name);
      const res = await post(`${base()}/approve`, { turn_id: turn.turn_id, approvals: [{ call_id: call.id, approved: true }] });
      assert.equal(res.statusCode, 200, res.body);
      turn = json<Turn>(res);
    }
    assert.deepEqual(seen, ['create_schema', 'create_prompt', 'run_extraction', 'update_extraction_field']);
    assert.equal(turn.text, 'Done: the total is now 99.');
    const promptRevid = String(turn.working_state.prompt_revid);
    assert.deepEqual(turn.working_state.extraction, { invoice_number: '2024-117', total: 99 }, "DocRouter's shape: the values");
    const result = json<{ updated_llm_result: { total: number }; is_edited: boolean }>(
      await get(`/v0/orgs/${alice.org.id}/llm/result/${docId}?prompt_revid=${promptRevid}`),
    );
    assert.deepEqual([result.updated_llm_result.total, result.is_edited], [99, true]);

    const [first] = agentRequests();
    assert.ok(first);
    assert.match(JSON.stringify(first.body.instructions ?? first.body.input), /Total due: 1,250.00 EUR/);
    assert.equal(first.body.parallel_tool_calls, false);
    const toolNames = (first.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    assert.equal(toolNames.length, 30);
    assert.ok(toolNames.includes('request_input'));
  });

  test('a rejected write is not made; the model reads the rejection', async () => {
    fake.setHandler((r) =>
      toolOutputs(r).length === 0
        ? { toolCalls: [{ name: 'delete_document', arguments: {} }] }
        : { text: 'Understood, I will not delete it.' },
    );
    const paused = json<Turn>(await post(base(), { messages: [{ role: 'user', content: 'Delete this.' }] }));
    const done = json<Turn>(
      await post(`${base()}/approve`, {
        turn_id: paused.turn_id,
        approvals: [{ call_id: paused.tool_calls?.[0]?.id, approved: false }],
      }),
    );
    assert.equal(done.text, 'Understood, I will not delete it.');
    assert.equal((await get(`/v0/orgs/${alice.org.id}/documents/${docId}?include_content=false`)).statusCode, 200);
    assert.match(JSON.stringify(agentRequests().at(-1)?.body.input), /User rejected this action/);
  });
});

test('an Anthropic-style model gets its signed thinking blocks back on the next step', async () => {
  fake.setHandler((r) => {
    const messages = r.body.messages as Array<{ role: string; content: unknown }>;
    return messages.length === 1
      ? {
          reasoning: { text: 'I should read the text first.', signature: 'sig-abc-123' },
          toolCalls: [{ name: 'get_ocr_text', arguments: {} }],
        }
      : { text: 'The total is 1,250.00 EUR.' };
  });
  const done = json<Turn>(
    await post(base(), { messages: [{ role: 'user', content: 'What is the total?' }], model: 'anthropic:claude-sonnet-4-5' }),
  );
  assert.equal(done.text, 'The total is 1,250.00 EUR.');
  const second = fake.requests.filter((r) => r.protocol === 'anthropic-messages').at(-1);
  const replayed = JSON.stringify(second?.body.messages);
  assert.match(replayed, /"type":"thinking".*"signature":"sig-abc-123"/);
  assert.match(replayed, /tool_result/);
  // Prompt-cache breakpoints: after the tools, after the system message, after the last message.
  const body = second?.body as {
    system: Array<{ cache_control?: unknown }>;
    tools: Array<{ cache_control?: unknown }>;
    messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
  };
  const ephemeral = { type: 'ephemeral' };
  assert.deepEqual(body.tools.at(-1)?.cache_control, ephemeral);
  assert.equal(body.tools.filter((tool) => tool.cache_control).length, 1);
  assert.deepEqual(body.system.at(-1)?.cache_control, ephemeral);
  assert.deepEqual(body.messages.at(-1)?.content.at(-1)?.cache_control, ephemeral);
});

test('a Chat Completions model (Ollama) calls a tool and gets its call and one result back, without its reasoning', async () => {
  const configured = await t.app.inject({
    method: 'PUT',
    url: `/v0/orgs/${alice.org.id}/llm/providers/ollama`,
    headers: bearer(alice.token),
    payload: { base_url: fake.baseUrl, models: ['qwen3:8b'] },
  });
  assert.equal(configured.statusCode, 200, configured.body);
  fake.setHandler((r) => {
    const messages = r.body.messages as Array<{ role: string }>;
    return messages.some((message) => message.role === 'tool')
      ? { text: 'The total is 1,250.00 EUR.' }
      : { reasoning: { text: 'The text has the total.' }, toolCalls: [{ name: 'get_ocr_text', arguments: {} }] };
  });
  const done = json<Turn>(
    await post(base(), { messages: [{ role: 'user', content: 'What is the total?' }], model: 'ollama:qwen3:8b' }),
  );
  assert.equal(done.text, 'The total is 1,250.00 EUR.');
  const calls = fake.requests.filter((r) => r.protocol === 'openai-chat');
  assert.equal(calls.length, 2);
  const replayed = calls[1]?.body.messages as Array<{
    role: string;
    content?: unknown;
    reasoning_content?: string;
    tool_calls?: Array<{ id: string; function: { name: string } }>;
    tool_call_id?: string;
  }>;
  const assistant = replayed.find((message) => message.role === 'assistant');
  const call = assistant?.tool_calls?.[0];
  assert.equal(call?.function.name, 'get_ocr_text');
  // Reasoning that carries no provider metadata (nothing the provider needs to verify) is not sent back (history.ts).
  assert.equal(assistant?.reasoning_content, undefined);
  const results = replayed.filter((message) => message.role === 'tool');
  assert.equal(results.length, 1, 'one result for the one call');
  assert.equal(results[0]?.tool_call_id, call?.id);
  assert.match(String(results[0]?.content), /1,250\.00 EUR/);
});

describe('streaming', () => {
  test('SSE frames come in order with ids; Last-Event-ID replays what was missed', async () => {
    fake.setHandler((r) =>
      toolOutputs(r).length === 0
        ? { text: 'Reading.', toolCalls: [{ name: 'get_ocr_text', arguments: {} }] }
        : { text: 'Read it all.' },
    );
    const res = await post(base(), { messages: [{ role: 'user', content: 'Read it.' }], stream: true });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/event-stream/);
    const frames = framesOf(res.body);
    const types = frames.map((f) => f.data.type);
    assert.equal(types[0], 'turn_started');
    assert.equal(types.at(-1), 'done');
    assert.deepEqual(
      frames.map((f) => f.id),
      frames.map((_f, i) => i + 1),
    );
    const order = [
      'turn_started',
      'assistant_text_chunk',
      'tool_calls',
      'tool_result',
      'round_executed',
      'assistant_text_done',
      'usage',
      'done',
    ];
    const firstIndex = order.map((type) => types.indexOf(type));
    assert.deepEqual(
      [...firstIndex].sort((a, b) => a - b),
      firstIndex,
      types.join(','),
    );

    const turnId = String(frames[0]?.data.turn_id);
    const replay = await get(`${base()}/turns/${turnId}/stream`, alice.token, { 'last-event-id': '2' });
    assert.equal(replay.statusCode, 200);
    const again = framesOf(replay.body);
    assert.equal(again[0]?.id, 3);
    assert.deepEqual(
      again.map((f) => f.data.type),
      types.slice(2),
    );
  });

  test('over a real socket the stream runs to its end, and a client going away does not stop the turn', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = (signal?: AbortSignal) =>
      fetch(`${address}${base()}`, {
        method: 'POST',
        headers: { ...bearer(alice.token), 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Read it.' }], stream: true }),
        signal,
      });
    fake.setHandler((r) =>
      toolOutputs(r).length === 0 ? { toolCalls: [{ name: 'get_ocr_text', arguments: {} }] } : { text: 'All read.' },
    );
    const whole = framesOf(await (await stream()).text());
    assert.deepEqual(
      whole.slice(-2).map((f) => f.data.type),
      ['usage', 'done'],
    );
    assert.ok(!whole.some((f) => f.data.type === 'stopped'));

    // The client leaves while the model's first step is held: the turn goes on without it.
    let release = () => {};
    const held = new Promise<FakeReply>((resolve) => {
      release = () => resolve({ text: 'too late' });
    });
    fake.setHandler(() => held);
    const leaving = new AbortController();
    const response = await stream(leaving.signal);
    const reader = response.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    const turnId = String(framesOf(first)[0]?.data.turn_id);
    leaving.abort();
    await new Promise((r) => setTimeout(r, 200));
    release();
    // Following it again shows every frame once, to its end.
    const again = await fetch(`${address}${base()}/turns/${turnId}/stream`, { headers: bearer(alice.token) });
    const frames = framesOf(await again.text());
    assert.equal(frames[0]?.data.type, 'turn_started');
    assert.deepEqual(
      frames.map((f) => Number(f.id)),
      frames.map((_, i) => i + 1),
    );
    assert.equal(frames.at(-1)?.data.type, 'done');
    assert.equal((frames.at(-1)?.data.result as { text: string } | undefined)?.text, 'too late');
    const status = json<{ status: string }>(await get(`/v0/orgs/${alice.org.id}/agent/runs/${turnId}`)).status;
    assert.equal(status, 'finished');
  });

  test('a paused streamed turn ends with pending_tool_calls then done; approve streams too', async () => {
    fake.setHandler((r) =>
      toolOutputs(r).length === 0
        ? { toolCalls: [{ name: 'create_tag', arguments: { name: 'streamed' } }] }
        : { text: 'Tagged.' },
    );
    const res = await post(base(), { messages: [{ role: 'user', content: 'Make a tag.' }], stream: true });
    const frames = framesOf(res.body);
    assert.deepEqual(
      frames.slice(-3).map((f) => f.data.type),
      ['pending_tool_calls', 'usage', 'done'],
    );
    const pending = frames.find((f) => f.data.type === 'pending_tool_calls')?.data as unknown as {
      turn_id: string;
      tool_calls: Array<{ id: string }>;
    };
    const approved = await post(`${base()}/approve`, {
      turn_id: pending.turn_id,
      approvals: [{ call_id: pending.tool_calls[0]?.id, approved: true }],
      stream: true,
    });
    const more = framesOf(approved.body);
    assert.equal(more[0]?.data.type, 'turn_started');
    assert.ok((more[0]?.id ?? 0) > (frames.at(-1)?.id ?? 0), 'frame ids go on within the turn');
    assert.equal(more.at(-1)?.data.type, 'done');
  });
});

test('threads keep the conversation and its working state for the next turn', async () => {
  const created = await post(`${base()}/threads`, { title: 'Invoice work' });
  assert.equal(created.statusCode, 200, created.body);
  const threadId = json<{ thread_id: string }>(created).thread_id;
  fake.setHandler(() => ({ text: 'First answer.' }));
  await post(base(), { messages: [{ role: 'user', content: 'Remember 42.' }], thread_id: threadId });
  fake.setHandler(() => ({ text: 'You said 42.' }));
  const second = json<Turn>(
    await post(base(), { messages: [{ role: 'user', content: 'What did I say?' }], thread_id: threadId }),
  );
  assert.equal(second.text, 'You said 42.');
  assert.match(JSON.stringify(agentRequests().at(-1)?.body.input), /Remember 42\..*First answer\..*What did I say\?/);

  const thread = json<{ messages: unknown[]; title: string }>(await get(`${base()}/threads/${threadId}`));
  assert.equal(thread.title, 'Invoice work');
  assert.equal(thread.messages.length, 4);
  const list = json<{ threads: Array<{ id: string }> }>(await get(`${base()}/threads`));
  assert.ok(list.threads.some((x) => x.id === threadId));

  fake.setHandler(() => ({ text: 'Edited answer.' }));
  await post(base(), {
    messages: [{ role: 'user', content: 'Remember 7.' }],
    thread_id: threadId,
    truncate_thread_to_message_count: 0,
  });
  assert.equal(json<{ messages: unknown[] }>(await get(`${base()}/threads/${threadId}`)).messages.length, 2);

  assert.equal((await get(`${base(alice.org.id, otherDocId)}/threads/${threadId}`)).statusCode, 404);
  assert.equal(
    (await t.app.inject({ method: 'DELETE', url: `${base()}/threads/${threadId}`, headers: bearer(alice.token) })).statusCode,
    200,
  );
  assert.equal((await get(`${base()}/threads/${threadId}`)).statusCode, 404);
});

test("a thread's next turn repeats the last request's input as it was sent, key order included, so the prompt cache reads it", async () => {
  const threadId = json<{ thread_id: string }>(await post(`${base()}/threads`, {})).thread_id;
  // Keys in an order jsonb would not keep: it gives shorter keys first.
  const format = {
    type: 'json_schema',
    json_schema: {
      name: 'invoice_keys',
      strict: true,
      schema: {
        type: 'object',
        properties: { invoice_number: { type: 'string' }, total: { type: 'number' } },
        required: ['invoice_number', 'total'],
        additionalProperties: false,
      },
    },
  };
  fake.setHandler((r) => {
    if (isExtraction(r)) return summaryOrExtraction(r);
    const outputs = toolOutputs(r);
    if (JSON.stringify(r.body.input).includes('Thank you.')) return { text: 'You are welcome.' };
    if (outputs.length === 0) {
      return { toolCalls: [{ name: 'create_schema', arguments: { name: 'Invoice keys', response_format: format } }] };
    }
    if (outputs.length === 1) {
      const schema_id = outputs[0].schema_id;
      return { toolCalls: [{ name: 'create_prompt', arguments: { name: 'Invoice keys', content: 'Extract.', schema_id } }] };
    }
    return { text: 'The schema and the prompt are made.' };
  });
  const send = (content: string) =>
    post(base(), {
      messages: [{ role: 'user', content }],
      thread_id: threadId,
      auto_approved_tools: ['create_schema', 'create_prompt'],
    });
  assert.equal((await send('Make a schema and a prompt.')).statusCode, 200);
  const lastOfFirstTurn = agentRequests().at(-1);
  assert.equal((await send('Thank you.')).statusCode, 200);
  const firstOfNextTurn = agentRequests().at(-1);

  const before = (lastOfFirstTurn?.body.input ?? []) as unknown[];
  const after = (firstOfNextTurn?.body.input ?? []) as unknown[];
  assert.equal(before.length > 4, true, 'the first turn called its tools');
  // The system message included: it carries the working state, now {schema_revid, prompt_revid}.
  assert.deepEqual(
    after.slice(0, before.length).map((item) => JSON.stringify(item)),
    before.map((item) => JSON.stringify(item)),
  );
  assert.match(JSON.stringify(after), /\\"strict\\":true,\\"schema\\"/);
});

describe('renaming a thread', () => {
  const patch = (url: string, payload: object, token = alice.token) =>
    t.app.inject({ method: 'PATCH', url, headers: bearer(token), payload });
  const agentUrl = (path: string) => `/v0/orgs/${alice.org.id}/agent${path}`;

  test('PATCH .../chat/threads/{id} renames it, keeps its messages and its place in the list', async () => {
    const threadId = json<{ thread_id: string }>(
      await post(`${base()}/threads`, { title: 'First words of a message' }),
    ).thread_id;
    fake.setHandler(() => ({ text: 'Noted.' }));
    await post(base(), { messages: [{ role: 'user', content: 'Remember 42.' }], thread_id: threadId });
    const before = json<{ updated_at: string }>(await get(`${base()}/threads/${threadId}`));

    const renamed = await patch(`${base()}/threads/${threadId}`, { title: '  Invoice   totals  ' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const summary = json<{ id: string; title: string; updated_at: string }>(renamed);
    assert.deepEqual([summary.id, summary.title], [threadId, 'Invoice totals'], 'spaces are tidied');
    assert.equal(summary.updated_at, before.updated_at, 'a rename is not a change of the conversation');
    const thread = json<{ title: string; messages: unknown[] }>(await get(`${base()}/threads/${threadId}`));
    assert.deepEqual([thread.title, thread.messages.length], ['Invoice totals', 2]);
    const list = json<{ threads: Array<{ id: string; title: string }> }>(await get(`${base()}/threads`));
    assert.equal(list.threads.find((x) => x.id === threadId)?.title, 'Invoice totals');
  });

  test('a blank or too long title is refused; another document, user or organization finds no thread', async () => {
    const threadId = json<{ thread_id: string }>(await post(`${base()}/threads`, { title: 'Mine' })).thread_id;
    for (const payload of [{ title: '   ' }, { title: 'x'.repeat(201) }, {}, { title: 'ok', extra: 1 }]) {
      const refused = await patch(`${base()}/threads/${threadId}`, payload);
      assert.equal(refused.statusCode, 400, `${JSON.stringify(payload)}: ${refused.body}`);
    }
    assert.equal((await patch(`${base(alice.org.id, otherDocId)}/threads/${threadId}`, { title: 'x' })).statusCode, 404);
    assert.equal((await patch(`${base(bob.org.id)}/threads/${threadId}`, { title: 'x' }, bob.token)).statusCode, 404);
    assert.equal((await patch(agentUrl(`/threads/${threadId}`), { title: 'x' }, bob.token)).statusCode, 404);
    assert.equal((await patch(`${base()}/threads/no-such-thread`, { title: 'x' })).statusCode, 404);
    assert.equal(json<{ title: string }>(await get(`${base()}/threads/${threadId}`)).title, 'Mine', 'unchanged');
  });

  test('PATCH /v0/orgs/{org}/agent/threads/{id} renames a thread on any subject', async () => {
    const created = json<{ thread_id: string }>(
      await post(agentUrl('/threads'), { subject: { kind: 'document', id: docId }, title: 'Generic' }),
    );
    const renamed = await patch(agentUrl(`/threads/${created.thread_id}`), { title: 'Generic, renamed' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.equal(json<{ title: string }>(renamed).title, 'Generic, renamed');
    const listed = json<{ threads: Array<{ id: string; title: string }> }>(
      await get(agentUrl(`/threads?subject_kind=document&subject_id=${docId}`)),
    );
    assert.equal(listed.threads.find((x) => x.id === created.thread_id)?.title, 'Generic, renamed');
    assert.equal(json<{ title: string }>(await get(`${base()}/threads/${created.thread_id}`)).title, 'Generic, renamed');
  });
});

describe('one turn at a time on a thread', () => {
  // The timeout turns a regression (all twenty running at once, each waiting on the held model) into a failure, not a hang.
  test('twenty messages sent at once: one turn runs, the rest are refused naming it, and no message is lost', {
    timeout: 120_000,
  }, async () => {
    const threadId = json<{ thread_id: string }>(await post(`${base()}/threads`, {})).thread_id;
    const held = heldReply({ text: 'The one answer.' });
    fake.setHandler((r) => (isAgentRequest(r) ? held.answer() : summaryOrExtraction(r)));
    let answered = 0;
    let nineteenAnswered: () => void = () => {};
    const allButOne = new Promise<void>((resolve) => {
      nineteenAnswered = resolve;
    });
    const sends = Array.from({ length: 20 }, (_, i) =>
      post(base(), { messages: [{ role: 'user', content: `message ${i}` }], thread_id: threadId }).then((res) => {
        answered += 1;
        if (answered === 19) nineteenAnswered();
        return res;
      }),
    );
    // The one turn that holds the thread waits in its model call until the other nineteen are answered.
    await held.arrived;
    await allButOne;
    held.release();
    const answers = await Promise.all(sends);
    const ok = answers.filter((r) => r.statusCode === 200);
    const busy = answers.filter((r) => r.statusCode === 409);
    assert.equal(ok.length, 1, answers.map((r) => r.statusCode).join(','));
    assert.equal(busy.length, 19);
    for (const res of busy) assert.match(json<{ detail: string }>(res).detail, /has turn \w+, which is still running/);

    const thread = json<{ messages: Array<{ role: string; content: unknown }> }>(await get(`${base()}/threads/${threadId}`));
    const said = thread.messages.filter((m) => m.role === 'user').map((m) => m.content);
    assert.equal(said.length, 1);
    assert.equal(thread.messages.length, 2);
    assert.equal(json<Turn>(ok[0] as (typeof answers)[number]).text, 'The one answer.');
  });

  test('a paused turn holds its thread until it is decided or stopped; stop ends it without running its calls', async () => {
    const threadId = json<{ thread_id: string }>(await post(`${base()}/threads`, {})).thread_id;
    fake.setHandler(() => ({ toolCalls: [{ name: 'create_tag', arguments: { name: 'held-tag' } }] }));
    const paused = json<Turn>(await post(base(), { messages: [{ role: 'user', content: 'tag it' }], thread_id: threadId }));
    assert.ok(paused.turn_id);

    const blocked = await post(base(), { messages: [{ role: 'user', content: 'something else' }], thread_id: threadId });
    assert.equal(blocked.statusCode, 409);
    assert.match(json<{ detail: string }>(blocked).detail, new RegExp(`has turn ${paused.turn_id}, which waits for a decision`));

    const stopped = await post(`${base()}/stop`, { turn_id: paused.turn_id });
    assert.equal(stopped.statusCode, 200, stopped.body);
    assert.equal(json<{ status: string }>(stopped).status, 'stopped');
    const tags = await get(`/v0/orgs/${alice.org.id}/tags`);
    assert.equal(
      json<{ tags: Array<{ name: string }> }>(tags).tags.some((x) => x.name === 'held-tag'),
      false,
    );
    // Followers of the turn see it end: after the frames of its pause come those of the stop.
    const pauseFrames = framesOf((await get(`${base()}/turns/${paused.turn_id}/stream`)).body);
    const afterPause = { 'last-event-id': String(pauseFrames.at(-1)?.id) };
    const stopFrames = framesOf((await get(`${base()}/turns/${paused.turn_id}/stream`, alice.token, afterPause)).body);
    assert.deepEqual(
      stopFrames.map((f) => f.data.type),
      ['turn_started', 'tool_result', 'round_executed', 'stopped', 'usage', 'done'],
    );
    assert.equal(stopFrames[1]?.data.decision, 'stopped');
    const again = await post(`${base()}/stop`, { turn_id: paused.turn_id });
    assert.equal(json<{ status: string }>(again).status, 'stopped');

    fake.setHandler(() => ({ text: 'Going on.' }));
    const next = await post(base(), { messages: [{ role: 'user', content: 'go on' }], thread_id: threadId });
    assert.equal(next.statusCode, 200, next.body);
    const thread = json<{ messages: Array<{ role: string }> }>(await get(`${base()}/threads/${threadId}`));
    // tag it, the call, its "stopped" result, go on, the answer.
    assert.deepEqual(
      thread.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'user', 'assistant'],
    );
  });

  test('stop on a finished turn says how it ended', async () => {
    fake.setHandler(() => ({ text: 'Done.' }));
    const threadId = json<{ thread_id: string }>(await post(`${base()}/threads`, {})).thread_id;
    await post(base(), { messages: [{ role: 'user', content: 'hi' }], thread_id: threadId });
    const runs = json<{ runs: Array<{ turn_id: string }> }>(await get(`/v0/orgs/${alice.org.id}/agent/runs?limit=1`)).runs;
    const res = await post(`${base()}/stop`, { turn_id: runs[0]?.turn_id ?? '' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res), { status: 'finished', detail: `Turn ${runs[0]?.turn_id} had already ended (finished).` });
  });
});

describe('bad input', () => {
  test('tools lists 16 read-only and 13 read-write tools', async () => {
    const tools = json<{ read_only: string[]; read_write: string[] }>(await get(`${base()}/tools`));
    assert.deepEqual([tools.read_only.length, tools.read_write.length], [16, 13]);
  });

  test('tools/{name}/check finds what running the tool would, without running it', async () => {
    const check = (tool: string, args: unknown) => post(`${base()}/tools/${tool}/check`, { arguments: args });
    assert.deepEqual(json(await check('create_tag', { name: 'checked-only' })), { valid: true, problems: [] });
    const bad = json<{ valid: boolean; problems: Array<{ path: string; message: string }> }>(
      await check('create_tag', { name: 42, colour: 'red' }),
    );
    assert.equal(bad.valid, false);
    assert.ok(
      bad.problems.some((p) => p.path === 'name'),
      JSON.stringify(bad.problems),
    );
    assert.ok(
      bad.problems.some((p) => /colour/.test(p.message)),
      'an unknown key is named',
    );
    const tags = json<{ tags: Array<{ name: string }> }>(await get(`/v0/orgs/${alice.org.id}/tags`));
    assert.ok(!tags.tags.some((tag) => tag.name === 'checked-only'), 'checking ran nothing');
    const unknown = await check('no_such_tool', {});
    assert.equal(unknown.statusCode, 404);
    assert.match(json<{ detail: string }>(unknown).detail, /no tool named "no_such_tool"/);
    assert.equal((await post(`${base()}/tools/create_tag/check`, { arguments: {} }, bob.token)).statusCode, 404);
  });

  test('unknown, consumed and foreign turns; unknown call ids; malformed mentions; other organizations', async () => {
    assert.equal((await post(`${base()}/approve`, { turn_id: 'no-such-turn', approvals: [] })).statusCode, 400);

    fake.setHandler(() => ({ toolCalls: [{ name: 'create_tag', arguments: { name: 'x-tag' } }] }));
    const paused = json<Turn>(await post(base(), { messages: [{ role: 'user', content: 'tag it' }] }));
    const unknownCall = await post(`${base()}/approve`, {
      turn_id: paused.turn_id,
      approvals: [{ call_id: 'nope', approved: true }],
    });
    assert.equal(unknownCall.statusCode, 400);
    assert.match(json<{ detail: string }>(unknownCall).detail, /not pending in this turn: nope/);
    assert.equal(
      (await post(`${base(alice.org.id, otherDocId)}/approve`, { turn_id: paused.turn_id, approvals: [] })).statusCode,
      404,
    );

    // Deciding nothing is a mistake to point out, not a rejection of everything.
    const undecided = await post(`${base()}/approve`, { turn_id: paused.turn_id, approvals: [] });
    assert.equal(undecided.statusCode, 400);
    const callId = paused.tool_calls?.[0]?.id ?? '';
    assert.match(json<{ detail: string }>(undecided).detail, new RegExp(`approvals is empty.*create_tag \\(${callId}\\)`));

    fake.setHandler(() => ({ text: 'ok' }));
    const reject = { turn_id: paused.turn_id, approvals: [{ call_id: callId, approved: false }] };
    assert.equal((await post(`${base()}/approve`, reject)).statusCode, 200);
    assert.equal((await post(`${base()}/approve`, reject)).statusCode, 409);

    const badMention = await post(base(), {
      messages: [{ role: 'user', content: 'hi' }],
      mentions: [{ type: 'schema', id: '../../etc' }],
    });
    assert.equal(badMention.statusCode, 400);

    assert.equal((await post(base(), { messages: [{ role: 'user', content: 'hi' }] }, bob.token)).statusCode, 404);
    assert.equal((await post(base(bob.org.id), { messages: [{ role: 'user', content: 'hi' }] }, bob.token)).statusCode, 404);
    assert.equal((await post(`${base()}/stop`, { turn_id: String(paused.turn_id) }, bob.token)).statusCode, 404);
    assert.equal(
      (await post(base(), { messages: [{ role: 'user', content: 'hi' }], thread_id: 'not-a-thread' })).statusCode,
      404,
    );
  });

  test('every tool taking an id finds nothing of another organization, even auto-approved', async () => {
    const bobAccess = { orgId: bob.org.id, role: 'admin' as const, userId: bob.user.id };
    const bobTag = await createTag(t.database.db, bob.org.id, { name: 'bob-only' });
    const bobSchema = await createSchema(t.database.db, bobAccess, { name: 'bob schema', responseFormat });
    const bobPrompt = await createPrompt(t.database.db, bobAccess, {
      name: 'bob prompt',
      content: 'x',
      schemaId: bobSchema.schemaId,
    });
    const bobDoc = await uploadReady('bob.txt', bob);
    const calls = [
      { name: 'get_ocr_text', arguments: { document_id: bobDoc } },
      { name: 'get_extraction_result', arguments: { document_id: bobDoc, prompt_revid: bobPrompt.promptRevid } },
      { name: 'run_extraction', arguments: { prompt_revid: bobPrompt.promptRevid } },
      { name: 'update_extraction_field', arguments: { prompt_revid: bobPrompt.promptRevid, path: 'total', value: 1 } },
      { name: 'update_document', arguments: { document_id: bobDoc, document_name: 'stolen' } },
      { name: 'delete_document', arguments: { document_id: bobDoc } },
      { name: 'get_schema', arguments: { schema_revid: bobSchema.schemaRevid } },
      { name: 'validate_against_schema', arguments: { schema_revid: bobSchema.schemaRevid, data: {} } },
      { name: 'update_schema', arguments: { schema_id: bobSchema.schemaId, name: 'stolen' } },
      { name: 'delete_schema', arguments: { schema_id: bobSchema.schemaId } },
      { name: 'get_prompt', arguments: { prompt_revid: bobPrompt.promptRevid } },
      { name: 'update_prompt', arguments: { prompt_id: bobPrompt.promptId, content: 'stolen' } },
      { name: 'delete_prompt', arguments: { prompt_id: bobPrompt.promptId } },
      { name: 'get_tag', arguments: { tag_id: bobTag.id } },
      { name: 'update_tag', arguments: { tag_id: bobTag.id, name: 'stolen' } },
      { name: 'delete_tag', arguments: { tag_id: bobTag.id } },
    ];
    fake.setHandler((r) => (toolOutputs(r).length === 0 ? { toolCalls: calls } : { text: 'Nothing found.' }));
    const res = await post(base(), { messages: [{ role: 'user', content: 'Use these ids.' }], stream: true, auto_approve: true });
    const results = framesOf(res.body).filter((f) => f.data.type === 'tool_result');
    assert.equal(results.length, calls.length);
    for (const r of results) {
      assert.equal(r.data.success, false, `${String(r.data.name)} must fail`);
      assert.match(String(r.data.error), /not found/i, String(r.data.name));
    }
    assert.equal((await getTag(t.database.db, bob.org.id, bobTag.id)).name, 'bob-only');
    const bobDocument = await get(`/v0/orgs/${bob.org.id}/documents/${bobDoc}?include_content=false`, bob.token);
    assert.equal(json<{ document_name: string }>(bobDocument).document_name, 'bob.txt');
  });

  test('run records keep every tool call with its approval, for admins only', async () => {
    const runs = await get(`/v0/orgs/${alice.org.id}/agent/runs?limit=100`);
    assert.equal(runs.statusCode, 200, runs.body);
    const body = json<{ runs: Array<{ id: string; tool_calls: Array<{ name: string; approval: string }> }> }>(runs);
    const calls = body.runs.flatMap((r) => r.tool_calls);
    assert.ok(calls.some((c) => c.name === 'create_schema' && c.approval === 'user'));
    assert.ok(calls.some((c) => c.name === 'delete_document' && c.approval === 'rejected'));
    assert.ok(calls.some((c) => c.name === 'get_ocr_text' && c.approval === 'not_needed'));
    const one = await get(`/v0/orgs/${alice.org.id}/agent/runs/${body.runs[0]?.id}`);
    assert.equal(one.statusCode, 200);
    assert.equal((await get(`/v0/orgs/${alice.org.id}/agent/runs/${body.runs[0]?.id}`, bob.token)).statusCode, 404);
  });

  test("mentions are resolved into the system message; another organization's id is 404", async () => {
    const tag = json<{ id: string }>(
      await post(`/v0/orgs/${alice.org.id}/tags`, { name: 'mentioned', description: 'Bills to pay' }),
    );
    fake.setHandler(() => ({ text: 'Seen.' }));
    const res = await post(base(), {
      messages: [{ role: 'user', content: 'Use @mentioned' }],
      mentions: [{ type: 'tag', id: tag.id }],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(JSON.stringify(agentRequests().at(-1)?.body), /The person mentioned:.*Tag \\"mentioned\\".*Bills to pay/);
    const bobTag = json<{ id: string }>(await post(`/v0/orgs/${bob.org.id}/tags`, { name: 'bobs' }, bob.token));
    const foreign = await post(base(), {
      messages: [{ role: 'user', content: 'x' }],
      mentions: [{ type: 'tag', id: bobTag.id }],
    });
    assert.equal(foreign.statusCode, 404);
  });

  test('a reached usage limit ends the turn with a clear message and sends nothing', async () => {
    await t.app.inject({
      method: 'PUT',
      url: `/v0/orgs/${alice.org.id}/llm/settings`,
      headers: bearer(alice.token),
      payload: { monthly_limit_usd: 0 },
    });
    const before = fake.requests.length;
    const turn = json<Turn>(await post(base(), { messages: [{ role: 'user', content: 'hi' }] }));
    assert.match(turn.text, /usage limit of \$0\.00 a month is reached/);
    assert.equal(fake.requests.length, before);
    await t.app.inject({
      method: 'PUT',
      url: `/v0/orgs/${alice.org.id}/llm/settings`,
      headers: bearer(alice.token),
      payload: { monthly_limit_usd: null },
    });
  });

  test('the provider failing mid-stream ends with an error frame; the turn can be sent again', async () => {
    fake.setHandler((r) =>
      isAgentRequest(r) && /cut me off/.test(JSON.stringify(r.body.input))
        ? { text: 'This answer will be cut off somewhere in the middle', cutAfterEvents: 6 }
        : { text: 'Fine now.' },
    );
    const res = await post(base(), { messages: [{ role: 'user', content: 'cut me off' }], stream: true });
    const types = framesOf(res.body).map((f) => f.data.type);
    assert.ok(types.includes('assistant_text_chunk'), `some text came before the cut: ${types.join(', ')}`);
    assert.equal(types.at(-1), 'error');
    assert.equal(json<Turn>(await post(base(), { messages: [{ role: 'user', content: 'hi' }] })).text, 'Fine now.');
  });
});

describe('the agent on any subject (/v0/orgs/{org}/agent)', () => {
  const agentUrl = (path: string) => `/v0/orgs/${alice.org.id}/agent${path}`;
  const subject = () => ({ kind: 'document', id: docId });

  test('the generic routes serve the document subject; unknown kinds and other organizations are 404', async () => {
    fake.setHandler(() => ({ text: 'Hello from the generic route.' }));
    const created = json<{ thread_id: string }>(await post(agentUrl('/threads'), { subject: subject(), title: 'Generic' }));
    const turn = json<Turn>(
      await post(agentUrl('/chat'), {
        subject: subject(),
        thread_id: created.thread_id,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    assert.equal(turn.text, 'Hello from the generic route.');
    const listed = json<{ threads: Array<{ id: string }> }>(
      await get(agentUrl(`/threads?subject_kind=document&subject_id=${docId}`)),
    );
    assert.ok(listed.threads.some((th) => th.id === created.thread_id));
    const thread = json<{ messages: unknown[]; strategy: string }>(await get(agentUrl(`/threads/${created.thread_id}`)));
    assert.equal(thread.messages.length, 2);
    assert.equal(thread.strategy, 'react');
    const tools = json<{ read_only: string[] }>(await get(agentUrl('/tools?subject_kind=document')));
    assert.ok(tools.read_only.includes('get_ocr_text'));

    const unknownKind = await post(agentUrl('/chat'), {
      subject: { kind: 'crate', id: docId },
      messages: [{ role: 'user', content: 'x' }],
    });
    assert.equal(unknownKind.statusCode, 404);
    assert.match(json<{ detail: string }>(unknownKind).detail, /Subject kind "crate"/);
    const bobsDoc = await uploadReady('bobs.txt', bob);
    const foreign = await post(agentUrl('/chat'), {
      subject: { kind: 'document', id: bobsDoc },
      messages: [{ role: 'user', content: 'x' }],
    });
    assert.equal(foreign.statusCode, 404);
    assert.equal((await get(agentUrl(`/threads/${created.thread_id}`), bob.token)).statusCode, 404);
  });

  test('a Reason–Act–Observe turn streams its phases in order over SSE', async () => {
    fake.setHandler((r) => {
      if (isExtraction(r)) return summaryOrExtraction(r);
      if (r.body.tools)
        return toolOutputs(r).length === 0 ? { toolCalls: [{ name: 'get_ocr_text', arguments: {} }] } : { text: 'x' };
      const sawResults = JSON.stringify(r.body.input).includes('function_call_output');
      return sawResults
        ? {
            text: 'The text is read.\n```json\n{"observation":"total 1,250.00 EUR","should_continue":false,"final_answer":"The total is 1,250.00 EUR."}\n```',
          }
        : { text: 'I will read the text first.\n{"plan":"read the text","tools_to_consider":["get_ocr_text"],"finish":false}' };
    });
    const res = await post(agentUrl('/chat'), {
      subject: subject(),
      strategy: 'roa',
      stream: true,
      messages: [{ role: 'user', content: 'What is the total?' }],
    });
    const frames = framesOf(res.body);
    assert.deepEqual(
      frames.map((f) => f.data.type),
      [
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
      ],
    );
    assert.equal(frames.find((f) => f.data.type === 'agent_reason')?.data.content, 'I will read the text first.');
    assert.equal((frames.at(-1)?.data.result as { text: string } | undefined)?.text, 'The total is 1,250.00 EUR.');
  });
});

describe("the document's state after the agent's extractions (issue 16, case 3)", () => {
  test('a document whose prompts failed says llm_completed once the agent re-ran the failed prompt successfully', async () => {
    fake.setHandler((r) => (isAgentRequest(r) ? { text: 'Nothing to do.' } : { text: 'not JSON' }));
    const id = await uploadReady('failing-summary.txt');
    const document = async () =>
      json<{ state: string; state_error: string | null }>(
        await get(`/v0/orgs/${alice.org.id}/documents/${id}?include_content=false`),
      );
    assert.equal((await document()).state, 'llm_failed');

    fake.setHandler((r) => {
      if (!isAgentRequest(r)) return summaryOrExtraction(r);
      return toolOutputs(r).length === 0
        ? { toolCalls: [{ name: 'run_extraction', arguments: { prompt_revid: 'default' } }] }
        : { text: 'The summary ran again.' };
    });
    const turn = await post(base(alice.org.id, id), {
      messages: [{ role: 'user', content: 'Run the summary again.' }],
      auto_approve: true,
    });
    assert.equal(turn.statusCode, 200, turn.body);
    const rerun = await document();
    assert.deepEqual([rerun.state, rerun.state_error], ['llm_completed', null]);
  });
});
