import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createApiToken, createUser, type DatabaseTarget, setMembership } from '@docagent/core';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import {
  type FakeLlmServer,
  type FakeReply,
  type HeldReply,
  heldReply,
  type RecordedRequest,
  startFakeLlm,
} from '@docagent/fake-llm';
import WebSocket from 'ws';
import { type BeatingSocket, startHeartbeat } from '../src/ws/heartbeat.ts';
import { CLOSE_TOO_SLOW, type SendableSocket, socketSender } from '../src/ws/socket-sender.ts';
import { lastUserText, outputsOfTurn, systemText } from './e2e/responses-requests.ts';
import { bearer, PASSWORD, seedMember, signIn, startTestApp, type TestApp } from './helpers.ts';
import { envFor, type ServerProcess, startServer } from './processes.ts';

/** The agent's WebSocket (issue 15): a real socket, the `ws` client, the fake provider as the model. */

const INVOICE = 'INVOICE 2024-117\nBill to: Acme GmbH\nTotal due: 42.00 EUR';
const ASK_ME = 'Ask me which currency to report';
const QUESTION = 'USD or EUR?';

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
/** A second member of alice's organization. */
let carolToken: string;
let docId: string;
let wsBase: string;
/** When set, the reason call waits for the test to let it go. */
let heldReason: HeldReply | undefined;

/** A phase's answer as the ROA prompts ask for it: text for the person, then the control object in a fence. */
const phase = (text: string, control: object) => `${text}\n\n\`\`\`json\n${JSON.stringify(control)}\n\`\`\``;

/** Reason and observe are plain calls told their phase in the system message; act is the call with tools. */
function roaModel(request: RecordedRequest): FakeReply | Promise<FakeReply> {
  const system = systemText(request);
  const asked = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (system.includes('## Reason (step')) {
    if (heldReason) return heldReason.answer();
    const plan = asked.includes(ASK_ME)
      ? { plan: 'Ask the person', finish: false }
      : { plan: 'read the text', tools_to_consider: ['get_ocr_text'], finish: false };
    return { text: phase('I will read the text.', plan) };
  }
  if (system.includes('## Observe (step')) {
    const answer = asked.includes(ASK_ME) ? `Noted: ${JSON.parse(outputs[0] ?? '{}').answer}.` : 'The total is 42.';
    return { text: phase('Seen.', { observation: 'the total is 42', should_continue: false, final_answer: answer }) };
  }
  if (request.body?.tools) {
    if (outputs.length > 0) return { text: 'Done with the tools.' };
    if (asked.includes(ASK_ME)) return { toolCalls: [{ name: 'request_input', arguments: { question: QUESTION } }] };
    if (asked.includes('Tag it')) return { toolCalls: [{ name: 'create_tag', arguments: { name: 'ws-tag' } }] };
    return { toolCalls: [{ name: 'get_ocr_text', arguments: {} }] };
  }
  // The document's extraction after its upload.
  return request.body?.text?.format?.schema
    ? { text: '{"invoice_number":"2024-117","total":42}' }
    : { text: '{"summary":"An invoice."}' };
}

type Message = { type: string; update_type?: string; turn_id?: string; event_id?: number } & Record<string, unknown>;
/** A message's kind as the tests name it: `agent_update/agent_reason`, `tool_start`, ... */
const kindOf = (m: Message) => (m.type === 'agent_update' ? `agent_update/${m.update_type}` : m.type);

/** A ws client that keeps every message, so a test can wait for one that has come or will come. */
class Client {
  readonly ws: WebSocket;
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private wake: Array<() => void> = [];

  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)));
      for (const w of this.wake.splice(0)) w();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: String(reason) });
        for (const w of this.wake.splice(0)) w();
      });
    });
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  /** The first message (from `from` on) that matches, once it has come. */
  async next(match: (m: Message) => boolean, from = 0, timeoutMs = 60_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found) return found;
      assert.ok(this.ws.readyState === WebSocket.OPEN, `socket closed while waiting; got ${this.kinds().join(', ')}`);
      assert.ok(Date.now() < deadline, `no such message; got ${this.kinds().join(', ')}`);
      await new Promise<void>((resolve) => {
        this.wake.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** The frames of a turn up to its `done` (the `count`th one: a pause ends with done too). */
  async turn(turnId: string, count = 1): Promise<Message[]> {
    const frames = () => this.messages.filter((m) => m.turn_id === turnId && m.event_id !== undefined);
    const done = await this.next((m) => m.type === 'done' && frames().filter((f) => f.type === 'done')[count - 1] === m);
    return frames().filter((m) => Number(m.event_id) <= Number(done.event_id));
  }

  kinds(turnId?: string): string[] {
    return this.messages.filter((m) => turnId === undefined || m.turn_id === turnId).map(kindOf);
  }
}

/** Opens a socket to an organization's agent; resolves once it is open (a refused one then closes). */
function connect(
  org: string,
  auth: { token?: string; cookie?: string; origin?: string; protocols?: string[] } = {},
  base = wsBase,
): Promise<Client> {
  const protocols = auth.protocols ?? (auth.token ? ['bearer', auth.token] : []);
  const headers = auth.cookie ? { cookie: auth.cookie } : {};
  const ws = new WebSocket(`${base}/v0/orgs/${org}/agent/ws`, protocols, { headers, origin: auth.origin });
  const client = new Client(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
  });
}

const chat = (message: string, extra: object = {}) => ({
  type: 'chat',
  subject: { kind: 'document', id: docId },
  message,
  agent_mode: true,
  strategy: 'roa',
  ...extra,
});

/** Uploads a document and waits until its extraction ran, so no job of it meets a later test's model. */
async function uploadReady(url: string, headers: Record<string, string>): Promise<string> {
  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { ...headers, 'content-type': 'application/json' } });
  const res = await send('/documents', {
    method: 'POST',
    body: JSON.stringify({ documents: [{ name: 'invoice.txt', content: Buffer.from(INVOICE).toString('base64') }] }),
  });
  const id = ((await res.json()) as { documents: Array<{ document_id: string }> }).documents[0]?.document_id ?? '';
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { state } = (await (await send(`/documents/${id}?include_content=false`)).json()) as { state: string };
    if (state === 'llm_completed' || state === 'llm_failed') return id;
    assert.ok(Date.now() < deadline, `document still ${state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

before(async () => {
  fake = await startFakeLlm();
  fake.setHandler(roaModel);
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    DOCAGENT_DEFAULT_MODEL: 'openai:gpt-4.1-mini',
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const carol = await createUser(t.database.db, { email: 'carol@example.test', password: PASSWORD });
  await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.id, role: 'user' });
  carolToken = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.id })).token;
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = address.replace(/^http/, 'ws');
  docId = await uploadReady(`${address}/v0/orgs/${alice.org.id}`, bearer(alice.token));
});
beforeEach(() => {
  heldReason = undefined;
  fake.setHandler(roaModel);
});
after(async () => {
  heldReason?.release();
  await t.close();
  await fake.close();
});

describe('a Reason–Act–Observe turn over the socket', () => {
  test('every event comes in order, numbered, in the seed-003 envelope', async () => {
    const client = await connect(alice.org.id, { token: alice.token });
    assert.equal(client.ws.protocol, 'bearer');
    client.send(chat('What is the total?'));
    const started = await client.next((m) => m.type === 'turn_started');
    const turnId = String(started.turn_id);
    const frames = await client.turn(turnId);
    assert.deepEqual(frames.map(kindOf), [
      'turn_started',
      'agent_update/agent_start',
      'agent_update/agent_turn_start',
      'agent_update/agent_reason',
      'tool_start',
      'tool_complete',
      'agent_update/agent_observe',
      'agent_update/agent_completion',
      'response_complete',
      'usage',
      'done',
    ]);
    assert.deepEqual(
      frames.map((f) => f.event_id),
      frames.map((_f, i) => i + 1),
    );
    const byKind = (kind: string) => frames.find((f) => kindOf(f) === kind) as Message;
    assert.equal(byKind('turn_started').strategy, 'roa');
    assert.deepEqual(byKind('agent_update/agent_reason'), {
      type: 'agent_update',
      update_type: 'agent_reason',
      turn_id: turnId,
      event_id: 4,
      content: 'I will read the text.',
      step: 1,
    });
    const toolStart = byKind('tool_start');
    assert.deepEqual(Object.keys(toolStart).sort(), ['call', 'event_id', 'step', 'turn_id', 'type']);
    assert.equal((toolStart.call as { name: string }).name, 'get_ocr_text');
    assert.equal(byKind('tool_complete').decision, 'allowed');
    assert.match(JSON.stringify(byKind('tool_complete').result), /Total due: 42\.00 EUR/);
    assert.equal(byKind('response_complete').text, 'The total is 42.');
    assert.equal((byKind('done').result as { text: string }).text, 'The total is 42.');

    // The same socket carries the next turn.
    client.send(chat('And again?'));
    const second = await client.next((m) => m.type === 'turn_started' && m.turn_id !== turnId);
    assert.equal((await client.turn(String(second.turn_id))).at(-1)?.type, 'done');
    client.ws.close();
  });

  test('a request_input question is answered with agent_user_input (the socket remembers the turn)', async () => {
    const client = await connect(alice.org.id, { token: alice.token });
    client.send(chat(ASK_ME));
    const asked = await client.next((m) => m.update_type === 'agent_request_input');
    assert.equal(asked.question, QUESTION);
    const turnId = String(asked.turn_id);
    const paused = await client.turn(turnId);
    client.send({ type: 'agent_user_input', content: 'EUR' });
    const whole = await client.turn(turnId, 2);
    const resumed = whole.slice(paused.length);
    assert.equal(resumed[0]?.type, 'turn_started');
    assert.ok((resumed[0]?.event_id ?? 0) > (paused.at(-1)?.event_id ?? 0), 'event ids go on within the turn');
    assert.equal(resumed.find((m) => m.type === 'response_complete')?.text, 'Noted: EUR.', whole.map(kindOf).join(', '));
    client.ws.close();
  });

  test('agent_control stops the running turn at its next phase boundary', async () => {
    heldReason = heldReply({ text: phase('Thinking.', { plan: 'read', finish: false }) });
    const client = await connect(alice.org.id, { token: alice.token });
    client.send(chat('What is the total?'));
    await heldReason.arrived;
    const turnId = String((await client.next((m) => m.type === 'turn_started')).turn_id);
    client.send({ type: 'agent_control', action: 'stop' });
    const result = await client.next((m) => m.type === 'agent_control_result');
    assert.deepEqual(
      { ...result, detail: undefined },
      { type: 'agent_control_result', turn_id: turnId, status: 'stopping', detail: undefined },
    );
    heldReason.release();
    const kinds = (await client.turn(turnId)).map(kindOf);
    assert.ok(kinds.includes('agent_update/agent_stopped'), kinds.join(', '));
    assert.ok(!kinds.includes('tool_start'), 'no tool ran after the stop');
    client.ws.close();
  });
});

test('a dropped socket does not stop its turn; follow shows the missed events once', async () => {
  heldReason = heldReply({ text: phase('I will read the text.', { plan: 'read the text', finish: false }) });
  const first = await connect(alice.org.id, { token: alice.token });
  first.send(chat('What is the total?'));
  await heldReason.arrived;
  const seen = await first.next((m) => m.update_type === 'agent_turn_start');
  const turnId = String(seen.turn_id);
  first.ws.terminate();
  await first.closed;
  heldReason.release();

  const second = await connect(alice.org.id, { token: alice.token });
  second.send({ type: 'follow', turn_id: turnId, after_event_id: seen.event_id });
  const missed = await second.turn(turnId);
  assert.deepEqual(
    missed.map((m) => m.event_id),
    missed.map((_m, i) => Number(seen.event_id) + 1 + i),
  );
  assert.equal(missed[0]?.update_type, 'agent_reason');
  assert.equal(missed.at(-1)?.type, 'done');
  assert.equal(new Set(missed.map((m) => m.event_id)).size, missed.length);
  second.ws.close();
});

describe('bad messages get an error and the socket stays open', () => {
  test('not JSON, failing its schema, binary, unknown turns', async () => {
    const client = await connect(alice.org.id, { token: alice.token });
    const errorAfter = async (sent: unknown, binary = false) => {
      const from = client.messages.length;
      if (binary) client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      else client.send(sent);
      return client.next((m) => m.type === 'error', from);
    };
    assert.match(String((await errorAfter('not json {')).error), /not JSON/);
    assert.match(String((await errorAfter({ type: 'chat', message: 'hi' })).error), /subject/);
    assert.match(String((await errorAfter({ type: 'dance' })).error), /type/);
    assert.match(String((await errorAfter({ ...chat('hi'), surprise: 1 })).error), /unknown field\(s\) surprise/);
    assert.match(String((await errorAfter({ type: 'follow', turn_id: 'x', after_event_id: -1 })).error), /after_event_id/);
    assert.match(String((await errorAfter(null, true)).error), /JSON text/);
    assert.match(String((await errorAfter(chat('a\u0000b'))).error), /NUL/);
    assert.match(String((await errorAfter({ type: 'agent_user_input', content: 'x' })).error), /No turn waits/);
    assert.match(String((await errorAfter({ type: 'agent_control', action: 'stop' })).error), /No turn to stop/);
    const unknown = await errorAfter({ type: 'agent_control', action: 'stop', turn_id: 'no-such-turn' });
    assert.equal(unknown.turn_id, 'no-such-turn');
    const foreign = await errorAfter(chat('hi', { subject: { kind: 'document', id: 'ffffffffffffffffffffffff' } }));
    assert.match(String(foreign.error), /not found/i);
    client.send({ type: 'ping' });
    await client.next((m) => m.type === 'pong');
    assert.equal(client.ws.readyState, WebSocket.OPEN);

    // Past the size limit is not a message: ws closes the socket (1009).
    client.ws.send('x'.repeat(1024 * 1024 + 1));
    assert.equal((await client.closed).code, 1009);
  });
});

test("another user's turn: approve, input, stop and follow are refused and leave it alone", async () => {
  const own = await connect(alice.org.id, { token: alice.token });
  own.send(chat('Tag it', { strategy: 'react' }));
  const pending = await own.next((m) => m.type === 'pending_tool_calls');
  const turnId = String(pending.turn_id);
  const callId = (pending.tool_calls as Array<{ id: string }>)[0]?.id;

  const other = await connect(alice.org.id, { token: carolToken });
  const refusals = [
    { type: 'approve', turn_id: turnId, approvals: [{ call_id: callId, approved: true }] },
    { type: 'agent_user_input', turn_id: turnId, content: 'yes' },
    { type: 'agent_control', action: 'stop', turn_id: turnId },
    { type: 'follow', turn_id: turnId, after_event_id: 0 },
  ];
  for (const message of refusals) {
    const from = other.messages.length;
    other.send(message);
    const refused = await other.next((m) => m.type === 'error', from);
    assert.equal(refused.turn_id, turnId, message.type);
    assert.match(String(refused.error), /not found/i, message.type);
  }
  assert.ok(!other.messages.some((m) => m.event_id !== undefined), 'no frame of the turn reached the other user');

  // Still paused for its owner, who decides it.
  own.send({ type: 'approve', turn_id: turnId, approvals: [{ call_id: callId, approved: false }] });
  const frames = await own.turn(turnId, 2);
  assert.equal(
    frames.find((m) => m.type === 'tool_result' && m.decision === 'rejected')?.call_id,
    callId,
    `the owner's rejection decides the call, not the refused stop: ${frames.map(kindOf).join(', ')}`,
  );
  own.ws.close();
  other.ws.close();
});

describe('who may open the socket', () => {
  const refusedWith = async (org: string, auth: Parameters<typeof connect>[1]) => {
    const client = await connect(org, auth);
    const { code } = await client.closed;
    assert.deepEqual(client.messages, [], 'nothing is said before the close');
    return code;
  };

  test('no credentials, a wrong token or a foreign page: 4401; another organization: 4403', async () => {
    assert.equal(await refusedWith(alice.org.id, {}), 4401);
    assert.equal(await refusedWith(alice.org.id, { token: 'da_wrong' }), 4401);
    assert.equal(await refusedWith(alice.org.id, { protocols: ['bearer'] }), 4401);
    assert.equal(await refusedWith(bob.org.id, { token: alice.token }), 4403);
    const { cookie } = await signIn(t.app, 'alice@example.test');
    assert.equal(await refusedWith(alice.org.id, { cookie, origin: 'https://evil.example' }), 4401);
    assert.equal(await refusedWith(alice.org.id, { cookie: 'docagent_session=ds_forged' }), 4401);
  });

  test('a session cookie (from our own page) and a bearer token are taken', async () => {
    const { cookie } = await signIn(t.app, 'alice@example.test');
    for (const auth of [{ cookie }, { cookie, origin: wsBase.replace(/^ws/, 'http') }, { token: alice.token }]) {
      const client = await connect(alice.org.id, auth);
      client.send({ type: 'ping' });
      await client.next((m) => m.type === 'pong');
      client.ws.close();
    }
  });

  test('a malformed organization id is refused before the upgrade, like every route', async () => {
    await assert.rejects(connect('not-an-id', { token: alice.token }), /Unexpected server response: 404/);
  });
});

test('200 idle sockets stay open and each answers a ping', async () => {
  const clients = await Promise.all(Array.from({ length: 200 }, () => connect(alice.org.id, { token: alice.token })));
  for (const client of clients) client.send({ type: 'ping' });
  await Promise.all(clients.map((client) => client.next((m) => m.type === 'pong')));
  assert.ok(clients.every((client) => client.ws.readyState === WebSocket.OPEN));
  for (const client of clients) client.ws.close();
  await Promise.all(clients.map((client) => client.closed));
});

describe('heartbeat and backpressure', () => {
  /** A socket that answers pings (or not), and records being ended. */
  class StandIn extends EventEmitter {
    terminated = false;
    answers: boolean;
    constructor(answers: boolean) {
      super();
      this.answers = answers;
    }
    ping() {
      if (this.answers) setImmediate(() => this.emit('pong'));
    }
    terminate() {
      this.terminated = true;
      this.emit('close');
    }
  }

  test('a socket that misses a pong is ended; one that answers is kept', async () => {
    const heartbeat = startHeartbeat(20);
    const [alive, dead] = [new StandIn(true), new StandIn(false)];
    heartbeat.add(alive as unknown as BeatingSocket);
    heartbeat.add(dead as unknown as BeatingSocket);
    while (!dead.terminated) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive.terminated, false);
    assert.equal(heartbeat.size, 1);
    heartbeat.stop();
  });

  test('a client that does not read is disconnected, not buffered for', () => {
    const sent: string[] = [];
    const closes: Array<[number, string]> = [];
    const socket = {
      readyState: 1,
      bufferedAmount: 0,
      send: (data: string) => sent.push(data),
      close: (code: number, reason: string) => closes.push([code, reason]),
    };
    const out = socketSender(socket as unknown as SendableSocket, 1000);
    out.send({ type: 'pong' });
    socket.bufferedAmount = 1001;
    out.send({ type: 'pong' });
    assert.deepEqual(sent, ['{"type":"pong"}']);
    assert.deepEqual(closes, [[CLOSE_TOO_SLOW, 'client too slow']]);
  });
});

describe('two server processes on one database', () => {
  let servers: ServerProcess[] = [];
  let drop = async () => {};
  let access: { org: string; token: string };
  let doc: string;

  before(async () => {
    if (testDatabaseKind() !== 'postgres') return;
    const created = await createTestDatabaseTarget();
    drop = created.drop;
    const env = serverEnv(created.target);
    servers = [await startServer(env)];
    servers.push(await startServer(env));
    const output = servers[0]?.output() ?? '';
    access = {
      org: /Organization:\s+.*\((\w+)\)/.exec(output)?.[1] ?? '',
      token: /API token:\s+(\S+)/.exec(output)?.[1] ?? '',
    };
    assert.ok(access.org && access.token, `the first start printed an org and a token:\n${output}`);
    doc = await uploadReady(`${servers[0]?.url}/v0/orgs/${access.org}`, bearer(access.token));
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await drop();
  });

  /** The fake provider as the only model provider of the child processes. */
  function serverEnv(target: DatabaseTarget): NodeJS.ProcessEnv {
    const env = envFor(target);
    for (const key of Object.keys(env)) if (/_(API_KEY|BASE_URL|MODELS)$/.test(key)) delete env[key];
    return {
      ...env,
      DOCAGENT_WORKERS: '1',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      DOCAGENT_DEFAULT_MODEL: 'openai:gpt-4.1-mini',
      LLM_MAX_RETRIES: '0',
      // A stop must reach the other process without the heartbeat's help (it would also abort).
      DOCAGENT_TURN_HEARTBEAT_SECONDS: '3600',
    };
  }
  const socketOn = (server: ServerProcess | undefined) =>
    connect(access.org, { token: access.token }, String(server?.url).replace(/^http/, 'ws'));
  const chatHere = (message: string) => ({ ...chat(message), subject: { kind: 'document', id: doc } });

  test('a stop sent to process B aborts the model call that process A has in flight', async (ctx) => {
    if (testDatabaseKind() !== 'postgres') return ctx.skip('two processes need PostgreSQL');
    heldReason = heldReply({ text: phase('Thinking.', { plan: 'read', finish: false }) });
    const [onA, onB] = [await socketOn(servers[0]), await socketOn(servers[1])];
    onA.send(chatHere('What is the total?'));
    await heldReason.arrived;
    const turnId = String((await onA.next((m) => m.type === 'turn_started')).turn_id);
    onB.send({ type: 'agent_control', action: 'stop', turn_id: turnId });
    assert.equal((await onB.next((m) => m.type === 'agent_control_result')).status, 'stopping');
    // The provider still holds its answer, and the heartbeat (the stop's backstop) is an hour
    // away: only the stop notice can end the turn now, by aborting the call.
    const kinds = (await onA.turn(turnId)).map(kindOf);
    assert.ok(kinds.includes('agent_update/agent_stopped'), kinds.join(', '));
    assert.ok(!kinds.includes('tool_start'));
    heldReason.release();
    onA.ws.close();
    onB.ws.close();
  });

  test("an answer sent to process B continues the turn A's socket asked on", async (ctx) => {
    if (testDatabaseKind() !== 'postgres') return ctx.skip('two processes need PostgreSQL');
    const [onA, onB] = [await socketOn(servers[0]), await socketOn(servers[1])];
    onA.send(chatHere(ASK_ME));
    const asked = await onA.next((m) => m.update_type === 'agent_request_input');
    const turnId = String(asked.turn_id);
    await onA.turn(turnId);
    onB.send({ type: 'agent_user_input', turn_id: turnId, content: 'USD' });
    const resumed = await onB.turn(turnId);
    assert.equal(resumed[0]?.type, 'turn_started');
    assert.equal(resumed.find((m) => m.type === 'response_complete')?.text, 'Noted: USD.');
    onA.ws.close();
    onB.ws.close();
  });
});
