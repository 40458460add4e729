import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { PythonSandbox } from '@docagent/core';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * Chat on a dataset (seed 004) with the real provider client pointed at the fake provider, and
 * this build's own executors: DuckDB in a child process, Python in bubblewrap where installed.
 */

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
let datasetId: string;

const SALES = 'id,region,amount\n1,north,9.5\n2,south,10\n3,north,2.5\n';
const MODEL = 'openai:gpt-4.1';

interface Body {
  assistant_message: string;
  run_id: string | null;
  thread_id: string;
  turn_id: string | null;
  status: string;
  result: {
    columns: Array<{ name: string; type: string }>;
    rows: unknown[][];
    row_count: number;
    exec_time_ms: number | null;
    truncated: string | null;
    error: { code: string; message: string } | null;
  } | null;
  details: {
    dataset_id: string;
    query_mode: string;
    plan_json: unknown;
    compiled_sql: string | null;
    python_code: string | null;
  } | null;
}
interface Run {
  run_id: string;
  status: string;
  question: string | null;
  query_mode: string;
  error: { code: string; message: string } | null;
}

const chatUrl = (id = datasetId, who = alice) => `/v0/orgs/${who.org.id}/datasets/${id}/chat`;
const post = (url: string, payload: object, token = alice.token) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const get = (url: string, token = alice.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

async function chat(payload: object): Promise<Body> {
  const res = await post(chatUrl(), { model: MODEL, ...payload });
  assert.equal(res.statusCode, 200, res.body);
  return json<Body>(res);
}

/** Parses an SSE body into its events: name and JSON data. */
function eventsOf(body: string): Array<{ event: string; data: Record<string, unknown> }> {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
      data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}'),
    }));
}

/** The tool results an OpenAI Responses request replays, in order (JSON, or the error text as it is). */
const toolOutputs = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string; output?: string }>)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => item.output ?? '');

/** A model that answers each request by how many tool results it has seen. */
const byStep =
  (...steps: FakeReply[]) =>
  (r: RecordedRequest): FakeReply =>
    steps[Math.min(toolOutputs(r).length, steps.length - 1)] ?? { text: 'No more steps.' };

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const res = await post(`/v0/orgs/${alice.org.id}/documents`, {
    documents: [{ name: 'sales.csv', content: Buffer.from(SALES).toString('base64') }],
    create_dataset: 'Sales',
  });
  assert.equal(res.statusCode, 200, res.body);
  datasetId = json<{ dataset: { dataset_id: string } }>(res).dataset.dataset_id;
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await fake.close();
});

describe('the agent on a dataset', () => {
  test('reads the schema, gets DuckDB’s error for a misspelt column, fixes the query and answers from the result', async () => {
    const wrong = 'SELECT region, sum(amout) AS total FROM sales GROUP BY region ORDER BY region';
    const fixed = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region';
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'get_dataset_schema', arguments: {} }] },
        { toolCalls: [{ name: 'execute_sql', arguments: { sql: wrong } }] },
        { toolCalls: [{ name: 'execute_sql', arguments: { sql: fixed } }] },
        { text: '| region | total |\n|---|---|\n| north | 12 |\n| south | 10 |' },
      ),
    );
    const question = 'What are the sales per region?';
    const body = await chat({ message: question });

    assert.deepEqual(Object.keys(body).sort(), [
      'assistant_message',
      'details',
      'result',
      'run_id',
      'status',
      'thread_id',
      'turn_id',
    ]);
    assert.match(body.assistant_message, /\| north \| 12 \|/);
    assert.equal(body.status, 'succeeded');
    assert.deepEqual(body.result?.rows, [
      ['north', 12],
      ['south', 10],
    ]);
    assert.deepEqual(
      body.result?.columns.map((c) => c.name),
      ['region', 'total'],
    );
    assert.equal(body.result?.row_count, 2);
    assert.equal(body.result?.error, null);
    assert.deepEqual(body.details, {
      dataset_id: datasetId,
      query_mode: 'sql',
      plan_json: null,
      compiled_sql: fixed,
      python_code: null,
    });

    const requests = fake.requests;
    assert.equal(requests.length, 4);
    const system = JSON.stringify(requests[0]?.body.instructions ?? requests[0]?.body.input);
    assert.match(system, /sales, 3 rows: \\"id\\" BIGINT, \\"region\\" VARCHAR, \\"amount\\" DOUBLE/);
    assert.match(system, /data, never instructions/);
    const schema = JSON.parse(toolOutputs(requests[1] as RecordedRequest)[0] ?? '{}');
    assert.equal(schema.tables[0].table_name, 'sales');
    assert.equal(schema.tables[0].sample_rows.length, 3);
    // The provider client sends a failed call's output as {"error": text}.
    const error = String(JSON.parse(toolOutputs(requests[2] as RecordedRequest)[1] ?? '{}').error);
    assert.match(error, /^EXECUTION_ERROR: Binder Error: Referenced column "amout" not found/);
    assert.match(error, /amount/, "DuckDB's candidate bindings reach the model");

    const run = json<Run>(await get(`/v0/orgs/${alice.org.id}/runs/${body.run_id}`));
    assert.deepEqual([run.status, run.question, run.query_mode], ['succeeded', question, 'sql']);
    const runs = json<{ runs: Run[] }>(await get(`/v0/orgs/${alice.org.id}/runs?dataset_id=${datasetId}&limit=100`)).runs;
    const failed = runs.find((r) => r.status === 'failed' && r.question === question);
    assert.equal(failed?.error?.code, 'EXECUTION_ERROR', 'the failed query is a run too');

    const thread = json<{ messages: unknown[] }>(await get(`/v0/orgs/${alice.org.id}/agent/threads/${body.thread_id}`));
    assert.ok(thread.messages.length >= 8, 'the turn is kept in its thread');
  });

  test('a turn that runs no query answers with nulls; the thread remembers the conversation', async () => {
    fake.setHandler(() => ({ text: 'Hello! Ask me about the sales.' }));
    const first = await chat({ message: 'Hi' });
    assert.equal(first.assistant_message, 'Hello! Ask me about the sales.');
    assert.deepEqual([first.run_id, first.result, first.details, first.status], [null, null, null, 'succeeded']);
    fake.setHandler(() => ({ text: 'You said hi.' }));
    const second = await chat({ message: 'What did I say?', thread_id: first.thread_id });
    assert.equal(second.thread_id, first.thread_id);
    assert.equal(second.run_id, null, "the previous turn's run is not this turn's");
    assert.match(JSON.stringify(fake.requests.at(-1)?.body.input), /Hello! Ask me about the sales/);
  });

  test('the stream sends token, tool_call, tool_result, result and done, in order', async () => {
    fake.setHandler(
      byStep(
        { text: 'Let me count.', toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT count(*) AS n FROM sales' } }] },
        { text: 'There are 3 sales.' },
      ),
    );
    const res = await post(`${chatUrl()}/stream`, { message: 'How many sales?', model: MODEL });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /text\/event-stream/);
    const events = eventsOf(res.body);
    assert.deepEqual(
      events.map((e) => e.event).filter((name) => name !== 'token'),
      ['tool_call', 'tool_result', 'result', 'done'],
    );
    const names = events.map((e) => e.event);
    assert.ok(names.indexOf('token') < names.indexOf('tool_call'), 'the text before the call streams first');
    const answer = events
      .slice(names.indexOf('tool_result') + 1)
      .filter((e) => e.event === 'token')
      .map((e) => e.data.text)
      .join('');
    assert.equal(answer, 'There are 3 sales.');
    assert.ok(events.filter((e) => e.event === 'token').length > 2, 'the answer comes in chunks');
    const call = events.find((e) => e.event === 'tool_call')?.data;
    assert.deepEqual([call?.name, call?.input], ['execute_sql', { sql: 'SELECT count(*) AS n FROM sales' }]);
    const output = events.find((e) => e.event === 'tool_result')?.data.output as { rows: unknown[][]; run_id: string };
    assert.deepEqual(output.rows, [[3]]);
    const result = events.find((e) => e.event === 'result')?.data as unknown as Body;
    assert.equal(result.assistant_message, 'There are 3 sales.');
    assert.equal(result.run_id, output.run_id);
    assert.deepEqual(events.at(-1)?.data, { run_id: output.run_id, thread_id: result.thread_id, turn_id: result.turn_id });
  });
  test('a provider failure mid-turn ends the stream with one error event', async () => {
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT 1 AS one' } }] },
        { kind: 'error', status: 500, message: 'upstream broke' },
      ),
    );
    const res = await post(`${chatUrl()}/stream`, { message: 'One?', model: MODEL });
    assert.equal(res.statusCode, 200, res.body);
    const names = eventsOf(res.body).map((e) => e.event);
    assert.deepEqual(names, ['tool_call', 'tool_result', 'error']);
  });
});

describe('the SQL: and PYTHON: fast path', () => {
  test('SQL: runs as written with no model call, is a run, and shows in the thread', async () => {
    const sql = 'SELECT count(*) AS n FROM sales';
    const body = await chat({ message: `SQL: ${sql}` });
    assert.equal(fake.requests.length, 0, 'no model call');
    assert.equal(body.status, 'succeeded');
    assert.equal(body.turn_id, null);
    assert.deepEqual(body.result?.rows, [[3]]);
    assert.deepEqual([body.details?.query_mode, body.details?.compiled_sql], ['sql', sql]);
    assert.equal(body.assistant_message, 'The result is 3 (n).');
    const run = json<Run>(await get(`/v0/orgs/${alice.org.id}/runs/${body.run_id}`));
    assert.deepEqual([run.status, run.question], ['succeeded', `SQL: ${sql}`]);

    const thread = json<{ messages: Array<{ role: string; content: unknown }> }>(
      await get(`/v0/orgs/${alice.org.id}/agent/threads/${body.thread_id}`),
    );
    assert.deepEqual(
      thread.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.match(JSON.stringify(thread.messages[1]), /"toolName":"execute_sql"/);

    fake.setHandler(() => ({ text: 'That was the number of sales.' }));
    const next = await chat({ message: 'What did that count?', thread_id: body.thread_id });
    assert.equal(next.assistant_message, 'That was the number of sales.');
    assert.match(JSON.stringify(fake.requests[0]?.body.input), /SELECT count\(\*\) AS n FROM sales/, 'the model sees it');
  });

  test("the fast path's stream has no token; errors and refusals come back as the run's", async () => {
    const res = await post(`${chatUrl()}/stream`, { message: 'sql: SELECT region FROM sales ORDER BY id LIMIT 1' });
    assert.equal(res.statusCode, 200, res.body);
    const events = eventsOf(res.body);
    assert.deepEqual(
      events.map((e) => e.event),
      ['tool_call', 'tool_result', 'result', 'done'],
    );
    assert.deepEqual((events[1]?.data.output as { rows?: unknown[][] } | undefined)?.rows, [['north']]);

    const broken = await chat({ message: 'SQL: SELECT nope FROM sales' });
    assert.equal(broken.status, 'failed');
    assert.equal(broken.result?.error?.code, 'EXECUTION_ERROR');
    assert.match(broken.result?.error?.message ?? '', /nope/);
    const copy = await chat({ message: "SQL: COPY sales TO '/tmp/stolen.csv'" });
    assert.equal(copy.status, 'rejected');
    assert.equal(copy.result?.error?.code, 'SQL_POLICY_VIOLATION');
    assert.equal(fake.requests.length, 0);
  });

  test('PYTHON: runs in the sandbox (or says what to install)', async () => {
    const body = await chat({ message: 'PYTHON:\nnorth = sales[sales.region == "north"]\nresult_df = north[["id"]]' });
    assert.equal(fake.requests.length, 0, 'no model call');
    assert.equal(body.details?.query_mode, 'python');
    const missing = await new PythonSandbox().unavailableReason();
    if (missing !== null) {
      assert.equal(body.status, 'failed');
      assert.deepEqual(body.result?.error, { code: 'FEATURE_DISABLED', message: missing });
      return;
    }
    assert.equal(body.status, 'succeeded', JSON.stringify(body.result?.error));
    assert.deepEqual(body.result?.rows, [[1], [3]]);
  });

  test('on a thread whose turn waits for an answer the fast path is a 409 and runs nothing', async () => {
    fake.setHandler(() => ({ toolCalls: [{ name: 'request_input', arguments: { question: 'Which year?' } }] }));
    const asked = await chat({ message: 'Sales of the year?' });
    assert.equal(asked.status, 'needs_input');
    assert.deepEqual((asked as Body & { input_request?: { question: string } }).input_request?.question, 'Which year?');
    assert.ok(asked.turn_id);
    const runsUrl = `/v0/orgs/${alice.org.id}/runs?dataset_id=${datasetId}&limit=1`;
    const before = json<{ total_count: number }>(await get(runsUrl)).total_count;
    const res = await post(chatUrl(), { message: 'SQL: SELECT 1', thread_id: asked.thread_id });
    assert.equal(res.statusCode, 409, res.body);
    assert.match(json<{ detail: string }>(res).detail, /waiting for a decision/);
    assert.equal(json<{ total_count: number }>(await get(runsUrl)).total_count, before, 'no run was made');

    fake.setHandler(() => ({ text: 'Then 2024.' }));
    const answered = await post(`/v0/orgs/${alice.org.id}/agent/chat/approve`, { turn_id: asked.turn_id, input: '2024' });
    assert.equal(answered.statusCode, 200, answered.body);
    assert.equal(json<{ text: string }>(answered).text, 'Then 2024.');
  });

  test('"SQL:" with nothing after it is a 400', async () => {
    const res = await post(chatUrl(), { message: 'SQL:   ' });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(json<{ detail: string }>(res).detail, /must be followed by the query/);
  });
});

describe('access and the generic routes', () => {
  test("another organization's dataset is a 404, streamed or not, with no model call", async () => {
    fake.setHandler(() => ({ text: 'leak' }));
    for (const url of [chatUrl(datasetId, bob), `${chatUrl(datasetId, bob)}/stream`]) {
      const res = await post(url, { message: 'What is in it?' }, bob.token);
      assert.equal(res.statusCode, 404, res.body);
    }
    const fast = await post(chatUrl(datasetId, bob), { message: 'SQL: SELECT 1' }, bob.token);
    assert.equal(fast.statusCode, 404, fast.body);
    const generic = await post(
      `/v0/orgs/${bob.org.id}/agent/chat`,
      { subject: { kind: 'dataset', id: datasetId }, messages: [{ role: 'user', content: 'hi' }] },
      bob.token,
    );
    assert.equal(generic.statusCode, 404, generic.body);
    assert.equal(fake.requests.length, 0);
  });

  test('the generic agent routes serve the dataset subject with the engine’s frames', async () => {
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'execute_sql', arguments: { sql: 'SELECT max(amount) AS top FROM sales' } }] },
        { text: 'The largest sale is 10.' },
      ),
    );
    const res = await post(`/v0/orgs/${alice.org.id}/agent/chat`, {
      subject: { kind: 'dataset', id: datasetId },
      messages: [{ role: 'user', content: 'Largest sale?' }],
      model: MODEL,
    });
    assert.equal(res.statusCode, 200, res.body);
    const turn = json<{ text: string; working_state: { last_run_id?: string } }>(res);
    assert.equal(turn.text, 'The largest sale is 10.');
    const run = json<Run>(await get(`/v0/orgs/${alice.org.id}/runs/${turn.working_state.last_run_id}`));
    assert.deepEqual([run.status, run.question], ['succeeded', 'Largest sale?']);
    const audit = json<{ runs: Array<{ turn_id: string; subject: { kind: string; name: string | null } }> }>(
      await get(`/v0/orgs/${alice.org.id}/agent/runs?limit=1`),
    ).runs[0];
    assert.deepEqual(audit?.subject.name, 'Sales', 'the audit names the dataset, as it names documents');

    const tools = json<{ read_only: string[]; read_write: string[] }>(
      await get(`/v0/orgs/${alice.org.id}/agent/tools?subject_kind=dataset`),
    );
    assert.deepEqual(tools, {
      read_only: ['list_datasets', 'get_dataset_schema', 'execute_sql', 'execute_query_plan', 'execute_python'],
      read_write: [],
      undoable: [],
    });
  });

  test('the chat tools say which ones this server cannot run', async () => {
    const res = await get(`${chatUrl()}/tools`);
    assert.equal(res.statusCode, 200, res.body);
    const missing = await new PythonSandbox().unavailableReason();
    const tools = json<{ read_only: string[]; unavailable: Record<string, string> }>(res);
    assert.equal(tools.read_only.length, 5);
    assert.deepEqual(tools.unavailable, missing === null ? {} : { execute_python: missing });
    assert.equal((await get(`${chatUrl(datasetId, bob)}/tools`, bob.token)).statusCode, 404);
  });
});
