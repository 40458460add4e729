import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { RewriteProposal } from '@docagent/agent';
import { createApiToken, createUser, setMembership } from '@docagent/core';
import {
  type FakeLlmServer,
  type FakeReply,
  type FakeSearchServer,
  fakeSearchResults,
  type RecordedRequest,
  startFakeLlm,
  startFakeSearch,
} from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * The notes agent (seed 001) over HTTP: the real provider client pointed at the fake provider, web
 * search at the fake search server (SearXNG's API), chat on a project through the generic agent routes
 * and seed 001's POST /agent/act.
 */

let t: TestApp;
let fake: FakeLlmServer;
let search: FakeSearchServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

const MODEL = 'openai:gpt-4.1';

interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  proposal?: unknown;
}
interface Turn {
  turn_id?: string;
  text: string;
  tool_calls?: ToolCall[];
  executed_rounds: Array<{ round_index: number; tool_calls: ToolCall[] }>;
}
interface Note {
  note_id: string;
  project_id: string;
  name: string;
  standing_instruction: string;
  version: number;
  size: number;
  content: string;
}

const org = (who = alice) => `/v0/orgs/${who.org.id}`;
const post = (url: string, payload: object, token = alice.token) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const get = (url: string, token = alice.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const del = (url: string, token = alice.token) => t.app.inject({ method: 'DELETE', url, headers: bearer(token) });

async function createProject(name: string, who = alice): Promise<string> {
  const res = await post(`${org(who)}/projects`, { name }, who.token);
  assert.equal(res.statusCode, 200, res.body);
  return json<{ project_id: string }>(res).project_id;
}

async function createNote(projectId: string, body: object, who = alice): Promise<Note> {
  const res = await post(`${org(who)}/projects/${projectId}/notes`, body, who.token);
  assert.equal(res.statusCode, 200, res.body);
  return json<Note>(res);
}

const notesOf = async (projectId: string) => json<{ notes: Note[] }>(await get(`${org()}/projects/${projectId}/notes`)).notes;

async function chat(projectId: string, message: string, token = alice.token, extra: object = {}): Promise<Turn> {
  const res = await post(
    `${org()}/agent/chat`,
    { subject: { kind: 'project', id: projectId }, model: MODEL, messages: [{ role: 'user', content: message }], ...extra },
    token,
  );
  assert.equal(res.statusCode, 200, res.body);
  return json<Turn>(res);
}

async function approve(turnId: string, callId: string, token = alice.token): Promise<Turn> {
  const res = await post(
    `${org()}/agent/chat/approve`,
    { turn_id: turnId, approvals: [{ call_id: callId, approved: true }] },
    token,
  );
  assert.equal(res.statusCode, 200, res.body);
  return json<Turn>(res);
}

/** The one call a paused turn waits on. */
function pendingCall(turn: Turn, name: string): ToolCall {
  assert.ok(turn.turn_id, `the turn paused: ${JSON.stringify(turn)}`);
  assert.equal(turn.tool_calls?.length, 1, JSON.stringify(turn.tool_calls));
  const call = turn.tool_calls?.[0] as ToolCall;
  assert.equal(call.name, name);
  return call;
}

/** The tool results an OpenAI Responses request replays, in order (parsed JSON). */
const toolOutputs = (r: RecordedRequest) =>
  ((r.body.input ?? []) as Array<{ type?: string; output?: string }>)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => JSON.parse(item.output ?? 'null') as Record<string, unknown>);

/** rewrite_note's own model call: no tools, its own system prompt. */
const isRewrite = (r: RecordedRequest) =>
  !r.body.tools && JSON.stringify(r.body.instructions ?? r.body.input).includes('You rewrite one Markdown note');
const agentRequests = () => fake.requests.filter((r) => !isRewrite(r));
const rewriteRequests = () => fake.requests.filter(isRewrite);

/** The text of the rewrite request's prompt (the user message). */
function rewritePromptOf(r: RecordedRequest): string {
  const input = r.body.input as Array<{ role?: string; content?: unknown }>;
  const user = input.find((m) => m.role === 'user');
  const content = user?.content;
  if (typeof content === 'string') return content;
  return (content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}
const block = (prompt: string, tag: string) => new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(prompt)?.[1] ?? '';

/**
 * The rewriting model: the note as it was, with a line for the requested change appended
 * (deterministic, so a test knows the proposal it should see).
 */
const rewriteReply = (r: RecordedRequest): FakeReply => {
  const prompt = rewritePromptOf(r);
  return { text: `${block(prompt, 'note').trimEnd()}\n- ${block(prompt, 'requested_change')}\n` };
};

/** The last user message of an agent request. */
function lastUserText(r: RecordedRequest): string {
  const users = (r.body.input as Array<{ role?: string; content?: unknown }>).filter((m) => m.role === 'user');
  const content = users.at(-1)?.content;
  if (typeof content === 'string') return content;
  return ((content ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
}

/** A model that answers rewrite requests with rewriteReply and agent requests by how many tool results it has seen. */
const byStep =
  (...steps: Array<FakeReply | ((r: RecordedRequest) => FakeReply)>) =>
  (r: RecordedRequest): FakeReply => {
    if (isRewrite(r)) return rewriteReply(r);
    const step = steps[Math.min(toolOutputs(r).length, steps.length - 1)] ?? { text: 'No more steps.' };
    return typeof step === 'function' ? step(r) : step;
  };

before(async () => {
  fake = await startFakeLlm();
  search = await startFakeSearch();
  t = await startTestApp({
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    SEARXNG_URL: search.url,
    DOCAGENT_WEB_SEARCH_TIMEOUT_SECONDS: '1',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
beforeEach(() => {
  fake.reset();
  search.reset();
});
after(async () => {
  await t.close();
  await fake.close();
  await search.close();
});

describe('the notes agent on a project', () => {
  test('"Add my favourite recipes": create_note waits for approval, then the note exists at version 1', async () => {
    const projectId = await createProject('Cooking');
    const content = '# Favourite recipes\n\n- Pancakes\n- Lentil soup\n';
    fake.setHandler(
      byStep(
        {
          text: 'I will create the note.',
          toolCalls: [{ name: 'create_note', arguments: { name: 'Favourite recipes', content } }],
        },
        { text: 'The note "Favourite recipes" is created.' },
      ),
    );
    const paused = await chat(projectId, 'Add my favourite recipes');
    const call = pendingCall(paused, 'create_note');
    assert.deepEqual(call.arguments, { name: 'Favourite recipes', content });
    assert.deepEqual(await notesOf(projectId), [], 'nothing is written before approval');

    const done = await approve(paused.turn_id as string, call.id);
    assert.equal(done.turn_id, undefined);
    assert.equal(done.text, 'The note "Favourite recipes" is created.');
    const notes = await notesOf(projectId);
    assert.deepEqual(
      notes.map((n) => [n.name, n.version, n.size]),
      [['Favourite recipes', 1, content.length]],
    );
    const note = json<Note>(await get(`${org()}/projects/${projectId}/notes/${notes[0]?.note_id}`));
    assert.equal(note.content, content);
    const created = toolOutputs(agentRequests().at(-1) as RecordedRequest)[0];
    assert.equal(created?.note_id, note.note_id, 'the model reads the created note back');
  });

  test('a rewrite shows its diff before approval; approving saves exactly the proposed text as version 2', async () => {
    const projectId = await createProject('Groceries');
    const note = await createNote(projectId, {
      name: 'Shopping list',
      content: '# Shopping\n\n- milk\n- bread\n',
      standing_instruction: 'A shopping list grouped by aisle',
    });
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'rewrite_note', arguments: { note_id: note.note_id, request: 'add eggs' } }] },
        { text: 'Eggs are on the list.' },
      ),
    );
    const paused = await chat(projectId, 'Put eggs on the shopping list');
    const call = pendingCall(paused, 'rewrite_note');
    const proposal = call.proposal as RewriteProposal;
    assert.equal(proposal.content, '# Shopping\n\n- milk\n- bread\n- add eggs\n');
    assert.deepEqual(
      [proposal.note_id, proposal.note_name, proposal.base_version, proposal.section, proposal.additions, proposal.deletions],
      [note.note_id, 'Shopping list', 1, null, 1, 0],
    );
    assert.match(proposal.diff, /^\+- add eggs$/m);
    assert.match(proposal.diff, /^@@ /m);

    const [rewrite, ...more] = rewriteRequests();
    assert.ok(rewrite, 'the rewrite made its own model call');
    assert.equal(more.length, 0, 'the proposal is made once');
    const prompt = rewritePromptOf(rewrite);
    assert.match(prompt, /<standing_instruction>\nA shopping list grouped by aisle\n<\/standing_instruction>/);
    assert.match(prompt, /<requested_change>\nadd eggs\n<\/requested_change>/);
    assert.equal(
      (await get(`${org()}/projects/${projectId}/notes/${note.note_id}`)).json().version,
      1,
      'not written before approval',
    );

    const done = await approve(paused.turn_id as string, call.id);
    assert.equal(done.text, 'Eggs are on the list.');
    assert.equal(rewriteRequests().length, 1, 'approval applies the proposal, it does not rewrite again');
    const v2 = json<{ version: number; content: string; source: string }>(
      await get(`${org()}/projects/${projectId}/notes/${note.note_id}/versions/2`),
    );
    assert.deepEqual([v2.version, v2.content, v2.source], [2, proposal.content, 'agent']);
    const diff = json<{ from: number; to: number; diff: string; additions: number; deletions: number }>(
      await get(`${org()}/projects/${projectId}/notes/${note.note_id}/diff?from=1&to=2`),
    );
    assert.deepEqual([diff.from, diff.to, diff.additions, diff.deletions], [1, 2, proposal.additions, proposal.deletions]);
    assert.match(diff.diff, /^\+- add eggs$/m);
    assert.equal(
      diff.diff
        .split('\n')
        .filter((l) => /^[+-][^+-]/.test(l))
        .join('\n'),
      proposal.diff
        .split('\n')
        .filter((l) => /^[+-][^+-]/.test(l))
        .join('\n'),
      'the stored diff changes the same lines as the proposal showed',
    );
  });

  test('a search-backed note cites the result URLs', async () => {
    const projectId = await createProject('Travel');
    const query = 'best ramen in Kyoto';
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'web_search', arguments: { query } }] },
        (r) => {
          const found = toolOutputs(r)[0] as { results: Array<{ title: string; url: string }> };
          const lines = found.results.map((x) => `- [${x.title}](${x.url})`).join('\n');
          return {
            toolCalls: [{ name: 'create_note', arguments: { name: 'Kyoto ramen', content: `# Kyoto ramen\n\n${lines}\n` } }],
          };
        },
        { text: 'Saved with sources.' },
      ),
    );
    const paused = await chat(projectId, 'Find the best ramen in Kyoto and keep a note');
    const call = pendingCall(paused, 'create_note');
    assert.deepEqual(
      paused.executed_rounds.flatMap((r) => r.tool_calls).map((c) => c.name),
      ['web_search'],
      'the search ran without asking',
    );
    assert.deepEqual(
      search.requests.map((r) => [r.api, r.query.q, r.query.format]),
      [['searxng', query, 'json']],
    );
    const seen = toolOutputs(agentRequests()[1] as RecordedRequest)[0] as {
      query: string;
      provider: string;
      results: unknown[];
    };
    assert.deepEqual([seen.query, seen.provider], [query, 'searxng']);
    assert.equal(seen.results.length, 3);

    await approve(paused.turn_id as string, call.id);
    const [listed] = await notesOf(projectId);
    const note = json<Note>(await get(`${org()}/projects/${projectId}/notes/${listed?.note_id}`));
    for (const result of fakeSearchResults(query)) assert.ok(note.content.includes(`](${result.url})`), result.url);
  });

  test('two people approve rewrites of the same version: the second fails with a fresh diff and writes nothing', async () => {
    const carol = await createUser(t.database.db, { email: 'carol@example.test', password: 'correct horse battery staple' });
    await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.id, role: 'user' });
    const carolToken = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.id })).token;
    const projectId = await createProject('Shared');
    const note = await createNote(projectId, { name: 'Packing', content: '# Packing\n\n- passport\n' });
    fake.setHandler(
      byStep(
        (r) => ({
          toolCalls: [
            {
              name: 'rewrite_note',
              arguments: { note_id: note.note_id, request: /sunscreen/.test(lastUserText(r)) ? 'sunscreen' : 'umbrella' },
            },
          ],
        }),
        { text: 'Finished.' },
      ),
    );
    const first = await chat(projectId, 'Add sunscreen to the packing list');
    const second = await chat(projectId, 'Add an umbrella to the packing list', carolToken);
    const firstCall = pendingCall(first, 'rewrite_note');
    const secondCall = pendingCall(second, 'rewrite_note');
    const firstProposal = firstCall.proposal as RewriteProposal;
    const secondProposal = secondCall.proposal as RewriteProposal;
    assert.deepEqual([firstProposal.base_version, secondProposal.base_version], [1, 1]);
    assert.equal(firstProposal.content, '# Packing\n\n- passport\n- sunscreen\n');
    assert.equal(secondProposal.content, '# Packing\n\n- passport\n- umbrella\n');

    await approve(first.turn_id as string, firstCall.id);
    const afterFirst = json<Note>(await get(`${org()}/projects/${projectId}/notes/${note.note_id}`));
    assert.deepEqual([afterFirst.version, afterFirst.content], [2, firstProposal.content]);

    fake.reset();
    fake.setHandler(byStep({ text: 'unused' }, { text: 'The note changed; I will not overwrite it.' }));
    const done = await approve(second.turn_id as string, secondCall.id, carolToken);
    assert.equal(done.text, 'The note changed; I will not overwrite it.');
    const error = String(toolOutputs(agentRequests().at(-1) as RecordedRequest).at(-1)?.error);
    assert.match(error, /changed since this rewrite was proposed \(it was version 1, it is version 2 now\); nothing was written/);
    assert.match(error, /^-- sunscreen$/m, 'the fresh diff is from the current version');
    assert.match(error, /^\+- umbrella$/m);
    assert.equal(rewriteRequests().length, 0, 'the approval did not rewrite again');

    const now = json<Note>(await get(`${org()}/projects/${projectId}/notes/${note.note_id}`));
    assert.deepEqual([now.version, now.content], [2, firstProposal.content]);
    const versions = json<{ versions: Array<{ version: number }> }>(
      await get(`${org()}/projects/${projectId}/notes/${note.note_id}/versions`),
    ).versions;
    assert.deepEqual(
      versions.map((v) => v.version),
      [2, 1],
    );
  });

  test('two rewrites of the same version approved at the same moment: exactly one is written', async () => {
    const projectId = await createProject('Race');
    const note = await createNote(projectId, { name: 'Race', content: '# Race\n\n- start\n' });
    fake.setHandler(
      byStep(
        (r) => ({
          toolCalls: [{ name: 'rewrite_note', arguments: { note_id: note.note_id, request: lastUserText(r) } }],
        }),
        { text: 'Finished.' },
      ),
    );
    const first = await chat(projectId, 'left');
    const second = await chat(projectId, 'right');
    const calls = [pendingCall(first, 'rewrite_note'), pendingCall(second, 'rewrite_note')];
    await Promise.all([
      approve(first.turn_id as string, calls[0]?.id as string),
      approve(second.turn_id as string, calls[1]?.id as string),
    ]);
    const now = json<Note>(await get(`${org()}/projects/${projectId}/notes/${note.note_id}`));
    assert.equal(now.version, 2);
    assert.ok(
      calls.some((c) => (c.proposal as RewriteProposal).content === now.content),
      now.content,
    );
    const errors = agentRequests()
      .flatMap((r) => toolOutputs(r))
      .filter((o) => typeof o.error === 'string');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(String(errors[0]?.error), /it is version 2 now/);
  });

  test('a note deleted while its rewrite awaits approval: the approval says so and creates nothing', async () => {
    const projectId = await createProject('Ephemeral');
    const note = await createNote(projectId, { name: 'Todo', content: '# Todo\n\n- call mum\n' });
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'rewrite_note', arguments: { note_id: note.note_id, request: 'water plants' } }] },
        { text: 'The note is gone.' },
      ),
    );
    const paused = await chat(projectId, 'Add watering the plants to my todo list');
    const call = pendingCall(paused, 'rewrite_note');
    assert.equal((await del(`${org()}/projects/${projectId}/notes/${note.note_id}`)).statusCode, 200);

    const done = await approve(paused.turn_id as string, call.id);
    assert.equal(done.text, 'The note is gone.');
    const error = String(toolOutputs(agentRequests().at(-1) as RecordedRequest).at(-1)?.error);
    assert.match(error, /The note "Todo" was deleted after this rewrite was proposed; nothing was written/);
    assert.deepEqual(await notesOf(projectId), []);
    assert.equal((await get(`${org()}/projects/${projectId}/notes/${note.note_id}`)).statusCode, 404);
  });
});

describe('web search failures', () => {
  const searchThenAnswer = () =>
    byStep({ toolCalls: [{ name: 'web_search', arguments: { query: 'weather in Lyon' } }] }, { text: 'The search failed.' });

  for (const [behaviour, what] of [
    ['error500', /SearXNG answered with HTTP 500/],
    ['garbage', /SearXNG answered with something that is not JSON \(content-type text\/html/],
    ['hang', /SearXNG did not answer within 1 s/],
  ] as const) {
    test(`the provider ${behaviour === 'hang' ? 'hangs' : `answers ${behaviour}`}: the tool's error says so, the turn finishes`, async () => {
      const projectId = await createProject(`Search ${behaviour}`);
      search.setBehaviour(behaviour);
      fake.setHandler(searchThenAnswer());
      const turn = await chat(projectId, 'What is the weather in Lyon?');
      assert.equal(turn.turn_id, undefined);
      assert.equal(turn.text, 'The search failed.');
      assert.equal(search.requests.length, 1);
      const error = String(toolOutputs(agentRequests().at(-1) as RecordedRequest)[0]?.error);
      assert.match(error, /Web search with SearXNG failed/);
      assert.match(error, what);
    });
  }

  for (const [provider, env, label] of [
    ['tavily', { TAVILY_API_KEY: 'tvly-secret-key', TAVILY_BASE_URL: '' }, 'Tavily'],
    ['brave', { BRAVE_SEARCH_API_KEY: 'brave-secret-key', BRAVE_SEARCH_BASE_URL: '' }, 'Brave Search'],
  ] as const) {
    test(`${label} by key: results, then a failure naming ${label} and never the key`, async () => {
      const urls = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v || search.url]));
      const other = await startTestApp({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
        LLM_MAX_RETRIES: '0',
        ...urls,
      });
      try {
        const dana = await seedMember(other.database, `dana-${provider}`);
        const created = await other.app.inject({
          method: 'POST',
          url: `${org(dana)}/projects`,
          headers: bearer(dana.token),
          payload: { name: `Search by ${provider}` },
        });
        const projectId = json<{ project_id: string }>(created).project_id;
        const turn = () =>
          other.app.inject({
            method: 'POST',
            url: `${org(dana)}/agent/chat`,
            headers: bearer(dana.token),
            payload: {
              subject: { kind: 'project', id: projectId },
              model: MODEL,
              messages: [{ role: 'user', content: 'Weather?' }],
            },
          });
        fake.setHandler(searchThenAnswer());
        assert.equal((await turn()).statusCode, 200);
        const found = toolOutputs(agentRequests().at(-1) as RecordedRequest)[0] as { provider: string; results: unknown[] };
        assert.deepEqual([found.provider, found.results.length], [provider, 3]);
        assert.deepEqual(
          search.requests.map((r) => r.api),
          [provider],
        );
        const secret = Object.values(env).find((v) => v !== '') as string;
        assert.match(JSON.stringify(search.requests[0]?.headers) + JSON.stringify(search.requests[0]?.body), new RegExp(secret));

        fake.reset();
        fake.setHandler(searchThenAnswer());
        search.setBehaviour('error500');
        const failed = await turn();
        assert.equal(failed.statusCode, 200, failed.body);
        assert.equal(json<Turn>(failed).text, 'The search failed.');
        const error = String(toolOutputs(agentRequests().at(-1) as RecordedRequest)[0]?.error);
        assert.match(error, new RegExp(`Web search with ${label} failed: ${label} answered with HTTP 500`));
        assert.ok(!error.includes(secret), 'the key is never in the message');
      } finally {
        await other.close();
      }
    });
  }

  test('no provider configured: the tool says how to configure one', async () => {
    const bare = await startTestApp({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' });
    try {
      const carl = await seedMember(bare.database, 'carl');
      const created = await bare.app.inject({
        method: 'POST',
        url: `${org(carl)}/projects`,
        headers: bearer(carl.token),
        payload: { name: 'No search' },
      });
      const projectId = json<{ project_id: string }>(created).project_id;
      fake.setHandler(searchThenAnswer());
      const res = await bare.app.inject({
        method: 'POST',
        url: `${org(carl)}/agent/chat`,
        headers: bearer(carl.token),
        payload: {
          subject: { kind: 'project', id: projectId },
          model: MODEL,
          messages: [{ role: 'user', content: 'Weather?' }],
        },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json<Turn>(res).text, 'The search failed.');
      const error = String(toolOutputs(agentRequests().at(-1) as RecordedRequest)[0]?.error);
      assert.match(error, /Web search is not configured/);
      assert.match(error, /SEARXNG_URL/);
      assert.equal(search.requests.length, 0);
    } finally {
      await bare.close();
    }
  });
});

describe("seed 001's POST /agent/act", () => {
  interface Act {
    document: Note | null;
    chat_message: { id: string; chat_id: string; role: string; content: string; created_at: string };
    agent_decision: {
      should_edit: boolean;
      should_create: boolean;
      document_id: string | null;
      document_name: string | null;
      document_content: string | null;
      pending_confirmation: boolean;
      needs_clarification: boolean;
      needs_web_search: boolean;
      search_query: string | null;
      conversational_response: string | null;
      turn_id: string | null;
      pending_tool_calls: ToolCall[];
    };
    web_search_performed: boolean;
  }
  const act = (payload: object, token = alice.token) => post(`${org()}/agent/act`, { model: MODEL, ...payload }, token);

  test('a proposed note comes back pending, is applied by approving its turn; chat_id continues the thread', async () => {
    const projectId = await createProject('Act');
    const query = 'easy vegan curry';
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'web_search', arguments: { query } }] },
        (r) => {
          const found = toolOutputs(r)[0] as { results: Array<{ title: string; url: string }> };
          const content = `# Curry\n\n${found.results.map((x) => `- [${x.title}](${x.url})`).join('\n')}\n`;
          return {
            text: 'I will save a curry note.',
            toolCalls: [{ name: 'create_note', arguments: { name: 'Curry', content } }],
          };
        },
        { text: 'Saved.' },
      ),
    );
    const res = await act({ message: 'Find an easy vegan curry and save it', project_id: projectId });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<Act>(res);
    assert.deepEqual(Object.keys(body).sort(), ['agent_decision', 'chat_message', 'document', 'web_search_performed']);
    assert.equal(body.document, null);
    assert.equal(body.chat_message.role, 'assistant');
    assert.equal(typeof body.chat_message.id, 'string');
    assert.equal(typeof body.chat_message.chat_id, 'string');
    assert.ok(!Number.isNaN(Date.parse(body.chat_message.created_at)));
    const decision = body.agent_decision;
    assert.equal(decision.should_create, true);
    assert.equal(decision.should_edit, false);
    assert.equal(decision.pending_confirmation, true);
    assert.equal(decision.document_name, 'Curry');
    assert.match(decision.document_content ?? '', /\]\(https:\/\/example\.org\/easy-vegan-curry\/1\)/);
    assert.equal(decision.needs_web_search, true);
    assert.equal(decision.search_query, query);
    assert.equal(decision.conversational_response, null);
    assert.ok(decision.turn_id);
    assert.deepEqual(
      decision.pending_tool_calls.map((c) => c.name),
      ['create_note'],
    );
    assert.equal(body.web_search_performed, true);
    assert.deepEqual(await notesOf(projectId), [], 'the write is not applied');

    await approve(decision.turn_id, decision.pending_tool_calls[0]?.id as string);
    const [created] = await notesOf(projectId);
    assert.equal(created?.name, 'Curry');
    assert.equal(
      json<Note>(await get(`${org()}/projects/${projectId}/notes/${created?.note_id}`)).content,
      decision.document_content,
    );

    fake.reset();
    fake.setHandler(() => ({ text: 'You asked me for a vegan curry.' }));
    const next = await act({ message: 'What did I ask you?', project_id: projectId, chat_id: body.chat_message.chat_id });
    assert.equal(next.statusCode, 200, next.body);
    const again = json<Act>(next);
    assert.equal(again.chat_message.chat_id, body.chat_message.chat_id);
    assert.equal(again.chat_message.content, 'You asked me for a vegan curry.');
    assert.match(JSON.stringify(fake.requests.at(-1)?.body.input), /Find an easy vegan curry and save it/);
    const thread = json<{ messages: unknown[] }>(await get(`${org()}/agent/threads/${body.chat_message.chat_id}`));
    assert.match(JSON.stringify(thread.messages), /What did I ask you\?/);
    assert.match(JSON.stringify(thread.messages), /Find an easy vegan curry/);
  });

  test('a rewrite through /agent/act names the note and carries the proposal, unapplied', async () => {
    const projectId = await createProject('Act rewrite');
    const note = await createNote(projectId, { name: 'Books', content: '# Books\n\n- Dune\n' });
    fake.setHandler(
      byStep(
        { toolCalls: [{ name: 'rewrite_note', arguments: { note_id: note.note_id, request: 'Hyperion' } }] },
        { text: 'Added.' },
      ),
    );
    const res = await act({ message: 'Add Hyperion', project_id: projectId, document_id: note.note_id });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<Act>(res);
    assert.equal(body.document?.note_id, note.note_id);
    assert.equal(body.document?.version, 1, 'the document as it is now');
    assert.equal(body.agent_decision.should_edit, true);
    assert.equal(body.agent_decision.document_id, note.note_id);
    assert.equal(body.agent_decision.document_content, '# Books\n\n- Dune\n- Hyperion\n');
    assert.match(JSON.stringify(agentRequests()[0]?.body.input), new RegExp(`note_id ${note.note_id}`), 'the note is mentioned');
    const call = body.agent_decision.pending_tool_calls[0] as ToolCall;
    assert.equal((call.proposal as RewriteProposal).content, body.agent_decision.document_content);
    assert.equal(json<Note>(await get(`${org()}/projects/${projectId}/notes/${note.note_id}`)).version, 1);
    await approve(body.agent_decision.turn_id as string, call.id);
    assert.equal(json<Note>(await get(`${org()}/projects/${projectId}/notes/${note.note_id}`)).version, 2);
  });

  test('a plain question is a conversational response with no document', async () => {
    const projectId = await createProject('Act question');
    fake.setHandler(() => ({ text: 'A note is a Markdown document in this project.' }));
    const res = await act({ message: 'What is a note?', project_id: projectId });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<Act>(res);
    assert.equal(body.document, null);
    assert.equal(body.chat_message.content, 'A note is a Markdown document in this project.');
    assert.equal(body.agent_decision.conversational_response, 'A note is a Markdown document in this project.');
    assert.deepEqual(
      [body.agent_decision.should_create, body.agent_decision.should_edit, body.agent_decision.pending_confirmation],
      [false, false, false],
    );
    assert.equal(body.agent_decision.turn_id, null);
    assert.deepEqual(body.agent_decision.pending_tool_calls, []);
    assert.equal(body.web_search_performed, false);
  });

  test('a request that fits several notes is answered with a question: needs_clarification, nothing pending to approve', async () => {
    const projectId = await createProject('Act ambiguous');
    await createNote(projectId, { name: 'Packing Lisbon', content: '- passport\n' });
    await createNote(projectId, { name: 'Packing Porto', content: '- umbrella\n' });
    const question = 'Which packing list: Lisbon or Porto?';
    fake.setHandler(() => ({ toolCalls: [{ name: 'request_input', arguments: { question } }] }));
    const res = await act({ message: 'Add sunscreen to the packing list', project_id: projectId });
    assert.equal(res.statusCode, 200, res.body);
    const body = json<Act>(res);
    assert.equal(body.agent_decision.needs_clarification, true);
    assert.equal(body.chat_message.content, question);
    assert.equal(body.agent_decision.conversational_response, question);
    assert.equal(body.agent_decision.pending_confirmation, false);
    assert.equal(body.document, null);
    assert.ok(body.agent_decision.turn_id, 'the answer continues this turn');
  });

  test("a note of another project, or another organization's project, is 404", async () => {
    const here = await createProject('Act here');
    const there = await createProject('Act there');
    const elsewhere = await createNote(there, { name: 'Elsewhere', content: 'x' });
    fake.setHandler(() => ({ text: 'should not be asked' }));
    const wrongNote = await act({ message: 'Edit it', project_id: here, document_id: elsewhere.note_id });
    assert.equal(wrongNote.statusCode, 404, wrongNote.body);
    const bobsProject = await createProject('Bob act', bob);
    const foreign = await act({ message: 'Hi', project_id: bobsProject });
    assert.equal(foreign.statusCode, 404, foreign.body);
    const unknown = await act({ message: 'Hi', project_id: 'no-such-project' });
    assert.equal(unknown.statusCode, 404, unknown.body);
    const unknownChat = await act({ message: 'Hi', project_id: here, chat_id: 'no-such-chat' });
    assert.equal(unknownChat.statusCode, 404, unknownChat.body);
    const bobsThread = json<{ thread_id: string }>(
      await post(`${org(bob)}/agent/threads`, { subject: { kind: 'project', id: bobsProject }, title: 'Bob' }, bob.token),
    );
    const foreignChat = await act({ message: 'Hi', project_id: here, chat_id: bobsThread.thread_id });
    assert.equal(foreignChat.statusCode, 404, foreignChat.body);
    const otherProjectsThread = json<{ thread_id: string }>(
      await post(`${org()}/agent/threads`, { subject: { kind: 'project', id: there }, title: 'There' }),
    );
    const crossed = await act({ message: 'Hi', project_id: here, chat_id: otherProjectsThread.thread_id });
    assert.equal(crossed.statusCode, 404, `a thread of another project: ${crossed.body}`);
    assert.equal(agentRequests().length, 0, 'no model call for a refused request');
  });
});

describe("another organization's project", () => {
  test('chat on it and its notes routes are 404', async () => {
    const bobsProject = await createProject('Bob private', bob);
    const bobsNote = await createNote(bobsProject, { name: 'Secret', content: 'secret' }, bob);
    fake.setHandler(() => ({ text: 'should not be asked' }));
    const chatRes = await post(`${org()}/agent/chat`, {
      subject: { kind: 'project', id: bobsProject },
      model: MODEL,
      messages: [{ role: 'user', content: 'Read the notes' }],
    });
    assert.equal(chatRes.statusCode, 404, chatRes.body);
    const viaBobsOrg = await post(`${org(bob)}/agent/chat`, {
      subject: { kind: 'project', id: bobsProject },
      model: MODEL,
      messages: [{ role: 'user', content: 'Read the notes' }],
    });
    assert.equal(viaBobsOrg.statusCode, 404, 'alice is no member of bob’s organization');
    assert.equal(fake.requests.length, 0);

    const notes = `${org()}/projects/${bobsProject}/notes`;
    for (const url of [
      notes,
      `${notes}/${bobsNote.note_id}`,
      `${notes}/${bobsNote.note_id}/versions`,
      `${notes}/${bobsNote.note_id}/versions/1`,
      `${notes}/${bobsNote.note_id}/diff?from=1&to=1`,
    ]) {
      assert.equal((await get(url)).statusCode, 404, url);
    }
    assert.equal((await post(notes, { name: 'Intruder', content: 'x' })).statusCode, 404);
    assert.equal(
      (
        await t.app.inject({
          method: 'PUT',
          url: `${notes}/${bobsNote.note_id}`,
          headers: bearer(alice.token),
          payload: { content: 'overwritten' },
        })
      ).statusCode,
      404,
    );
    assert.equal((await del(`${notes}/${bobsNote.note_id}`)).statusCode, 404);
    const still = json<Note>(await get(`${org(bob)}/projects/${bobsProject}/notes/${bobsNote.note_id}`, bob.token));
    assert.deepEqual([still.version, still.content], [1, 'secret']);
  });
});
