import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import WebSocket from 'ws';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { loggerOptions } from '../src/http/logging.ts';
import { createModelRegistry } from '../src/llm.ts';
import { registerTracing, shutdownTelemetry } from '../src/telemetry.ts';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/** Stand for secrets and a person's content: they may reach the provider, never a span. */
const API_KEY = 'sk-telemetry-secret-7f3a';
const DOCUMENT_TEXT = 'Confidential memo 4711: the merger closes on Friday.';
const QUESTION = 'When does the merger close? (question-marker-92c1)';

const exporter = new InMemorySpanExporter();
registerTracing('docagent-test', [new SimpleSpanProcessor({ exporter })]);

let t: TestApp;
let fake: FakeLlmServer;
let member: Awaited<ReturnType<typeof seedMember>>;
let docId: string;

const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const isAgentRequest = (r: RecordedRequest) => Boolean(r.body.tools);
const toolOutputCount = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string }>).filter((item) => item.type === 'function_call_output').length;

/** Waits for a span to be ended (a response's span ends when it is closed, just after it was read). */
async function spanNamed(name: string, where: (span: ReadableSpan) => boolean = () => true): Promise<ReadableSpan> {
  for (let i = 0; i < 3000; i++) {
    const found = spans().find((s) => s.name === name && where(s));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`no span ${name}; have ${spans().map((s) => s.name)}`);
}

/** Everything the spans carry (attributes, events, status, resource) holds no key, token, document or question. */
function assertNoSecretsInSpans(): void {
  for (const span of spans()) {
    const carried = JSON.stringify([span.name, span.attributes, span.events, span.links, span.status, span.resource.attributes]);
    for (const secret of [API_KEY, 'Confidential memo', 'merger', 'question-marker-92c1', 'Bearer', member.token]) {
      assert.ok(!carried.includes(secret), `${span.name} carries ${secret}`);
    }
  }
}

before(async () => {
  fake = await startFakeLlm();
  fake.setHandler(() => ({ text: '{"summary": "A memo."}', usage: { inputTokens: 50, outputTokens: 5 } }));
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: API_KEY,
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  member = await seedMember(t.database, 'traced');
  const upload = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${member.org.id}/documents`,
    headers: bearer(member.token),
    payload: { documents: [{ name: 'memo.txt', content: Buffer.from(DOCUMENT_TEXT).toString('base64') }] },
  });
  docId = json<{ documents: Array<{ document_id: string }> }>(upload).documents[0]?.document_id ?? '';
  assert.ok(docId, upload.body);
});
after(async () => {
  await t.close();
  await fake.close();
  await shutdownTelemetry();
});

test('a job run is a consumer span of its own trace, with its kind, attempt and outcome', async () => {
  const job = await spanNamed('process text-extraction', (s) => s.attributes['docagent.job.outcome'] !== undefined);
  assert.equal(job.kind, SpanKind.CONSUMER);
  assert.equal(parentOf(job), undefined, 'a job starts its own trace');
  assert.equal(job.attributes['docagent.job.kind'], 'text-extraction');
  assert.equal(job.attributes['docagent.job.attempt'], 1);
  assert.equal(job.attributes['docagent.job.outcome'], 'succeeded');
});

test('a chat turn over HTTP: request → turn → model calls and the tool call, without secrets or content', async () => {
  // The document's own jobs (text, then its default prompts) are done before the turn, so that
  // every model call the turn's trace holds is the agent's.
  await spanNamed('process llm-extraction', (s) => s.attributes['docagent.job.outcome'] !== undefined);
  exporter.reset();
  fake.reset();
  fake.setHandler((r) => {
    if (!isAgentRequest(r)) return { text: '{}' };
    if (toolOutputCount(r) === 0) {
      return {
        toolCalls: [{ name: 'get_ocr_text', arguments: { document_id: docId } }],
        usage: { inputTokens: 321, outputTokens: 12 },
      };
    }
    return { text: 'It closes on Friday.', usage: { inputTokens: 400, outputTokens: 7 } };
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${member.org.id}/documents/${docId}/chat`,
    headers: bearer(member.token),
    payload: { messages: [{ role: 'user', content: QUESTION }], model: 'openai:gpt-4.1-mini' },
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json<{ text: string }>(res).text, 'It closes on Friday.');

  const route = '/v0/orgs/:organization_id/documents/:document_id/chat';
  const request = await spanNamed(`POST ${route}`);
  assert.equal(request.kind, SpanKind.SERVER);
  assert.equal(parentOf(request), undefined);
  assert.deepEqual(
    [
      request.attributes['http.request.method'],
      request.attributes['http.route'],
      request.attributes['http.response.status_code'],
    ],
    ['POST', route, 200],
  );
  const traceId = request.spanContext().traceId;
  const inTrace = spans().filter((s) => s.spanContext().traceId === traceId);

  const turn = inTrace.find((s) => s.name === 'invoke_agent docagent');
  assert.ok(turn, `no turn span in ${inTrace.map((s) => s.name)}`);
  assert.equal(parentOf(turn), idOf(request), 'the turn runs inside the request');
  assert.equal(turn.attributes['docagent.turn.status'], 'finished');
  assert.equal(turn.attributes['docagent.turn.model'], 'openai:gpt-4.1-mini');
  assert.equal(turn.attributes['docagent.turn.resumed'], false);

  const llmCalls = inTrace.filter((s) => s.name === 'chat gpt-4.1-mini');
  assert.equal(llmCalls.length, 2, 'one model call before the tool, one after');
  for (const call of llmCalls) {
    assert.equal(parentOf(call), idOf(turn));
    assert.equal(call.kind, SpanKind.CLIENT);
    assert.equal(call.attributes['gen_ai.operation.name'], 'chat');
    assert.equal(call.attributes['gen_ai.provider.name'], 'openai');
    assert.equal(call.attributes['gen_ai.system'], 'openai');
    assert.equal(call.attributes['gen_ai.request.model'], 'gpt-4.1-mini');
    assert.equal(call.attributes['docagent.llm.purpose'], 'agent');
  }
  assert.deepEqual(
    llmCalls
      .map((s) => [s.attributes['gen_ai.usage.input_tokens'], s.attributes['gen_ai.usage.output_tokens']])
      .sort((a, b) => Number(a[0]) - Number(b[0])),
    [
      [321, 12],
      [400, 7],
    ],
  );

  const tool = inTrace.find((s) => s.name === 'execute_tool get_ocr_text');
  assert.ok(tool, `no tool span in ${inTrace.map((s) => s.name)}`);
  assert.equal(parentOf(tool), idOf(turn));
  assert.equal(tool.attributes['gen_ai.tool.name'], 'get_ocr_text');
  assert.equal(tool.attributes['docagent.tool.outcome'], 'success');

  assertNoSecretsInSpans();
});

test('a log line written during a request carries its trace and span ids', async () => {
  const lines: string[] = [];
  const config = loadConfig({ DOCAGENT_WORKERS: '0' });
  const app = await buildApp({
    config,
    db: t.database.db,
    scheduler: t.queue,
    llm: createModelRegistry(t.database, config),
    logger: { ...loggerOptions('info'), stream: { write: (line: string) => void lines.push(line) } },
    events: t.events,
  });
  try {
    await app.ready();
    exporter.reset();
    const res = await app.inject({ method: 'GET', url: `/v0/orgs/${member.org.id}/documents`, headers: bearer(member.token) });
    assert.equal(res.statusCode, 200, res.body);
    const span = await spanNamed('GET /v0/orgs/:organization_id/documents');
    const completed = lines
      .map((line) => JSON.parse(line) as { msg?: string; trace_id?: string; span_id?: string })
      .find((line) => line.msg === 'request completed');
    assert.ok(completed, lines.join(''));
    assert.deepEqual([completed.trace_id, completed.span_id], [span.spanContext().traceId, span.spanContext().spanId]);
  } finally {
    await app.close();
  }
});

test('a chat message over the WebSocket is a span linked to its connection, and the turn nests under it', async () => {
  exporter.reset();
  fake.reset();
  fake.setHandler((r) => (isAgentRequest(r) ? { text: 'Friday.' } : { text: '{}' }));
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const ws = new WebSocket(`${address.replace('http', 'ws')}/v0/orgs/${member.org.id}/agent/ws`, ['bearer', member.token]);
  const done = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'done') resolve();
    });
    ws.once('error', reject);
  });
  await new Promise((resolve) => ws.once('open', resolve));
  ws.send(
    JSON.stringify({ type: 'chat', subject: { kind: 'document', id: docId }, message: QUESTION, model: 'openai:gpt-4.1-mini' }),
  );
  await done;
  ws.close();
  const message = await spanNamed('ws chat');
  const connection = await spanNamed('GET /v0/orgs/:organization_id/agent/ws');
  assert.equal(parentOf(message), undefined, 'a message starts its own trace');
  assert.deepEqual(
    message.links.map((l) => l.context.spanId),
    [idOf(connection)],
  );
  assert.equal(connection.attributes['http.response.status_code'], 101);
  const turn = await spanNamed('invoke_agent docagent');
  assert.equal(parentOf(turn), idOf(message));
  const call = await spanNamed('chat gpt-4.1-mini');
  assert.equal(parentOf(call), idOf(turn));
  assertNoSecretsInSpans();
});
