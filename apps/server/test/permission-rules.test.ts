import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createApiToken, createUser, setMembership } from '@docagent/core';
import { type FakeLlmServer, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
/** A member of alice's organization who is no admin. */
let carolToken: string;
let docId: string;

type Rule = {
  rule_id: string;
  tool: string;
  pattern: Record<string, string>;
  effect: string;
  scope: string;
  allows_everything: boolean;
};
type Turn = {
  turn_id?: string;
  text: string;
  tool_calls?: Array<{ id: string; name: string }>;
};
type AuditedCall = { name: string; decision: string; reason: string; rule_id?: string; success: boolean };

const rules = (org = alice.org.id) => `/v0/orgs/${org}/permission-rules`;
const chat = () => `/v0/orgs/${alice.org.id}/documents/${docId}/chat`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = alice.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

const toolOutputs = (r: RecordedRequest) =>
  (r.body.input as Array<{ type?: string; output?: string }>).filter((item) => item.type === 'function_call_output');
const isAgent = (r: RecordedRequest) => Boolean(r.body.tools) && !r.body.text?.format?.schema;

/** The model calls one tool with these arguments, then answers with the text of what it got back. */
function modelCalls(name: string, args: Record<string, unknown>) {
  fake.setHandler((r) => {
    if (!isAgent(r)) return { text: '{"summary": "A memo."}' };
    const outputs = toolOutputs(r);
    return outputs.length === 0 ? { toolCalls: [{ name, arguments: args }] } : { text: `Got: ${outputs[0]?.output}` };
  });
}

async function runRecordOf(turnText: string): Promise<AuditedCall[]> {
  const runs = json<{ runs: Array<{ id: string }> }>(await call('GET', `/v0/orgs/${alice.org.id}/agent/runs?limit=1`)).runs;
  const record = json<{ tool_calls: AuditedCall[] }>(await call('GET', `/v0/orgs/${alice.org.id}/agent/runs/${runs[0]?.id}`));
  assert.ok(record.tool_calls.length > 0, `a run record for "${turnText}"`);
  return record.tool_calls;
}

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '0',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const carol = await createUser(t.database.db, { email: 'carol@example.test', password: 'correct horse battery' });
  await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.id, role: 'user' });
  carolToken = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.id })).token;
  const upload = await call('POST', `/v0/orgs/${alice.org.id}/documents`, {
    documents: [{ name: 'memo.txt', content: Buffer.from('A memo about tags.').toString('base64') }],
  });
  docId = json<{ documents: Array<{ document_id: string }> }>(upload).documents[0]?.document_id ?? '';
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await fake.close();
});

describe('permission rules over HTTP', () => {
  test('made, listed, changed and removed; bad patterns, unknown tools and other people are refused', async () => {
    const made = await call('POST', rules(), {
      tool: 'create_tag',
      pattern: { name: 'auto-*' },
      effect: 'allow',
      note: 'robots',
    });
    assert.equal(made.statusCode, 201, made.body);
    const rule = json<Rule>(made);
    assert.deepEqual([rule.scope, rule.allows_everything, rule.pattern], ['user', false, { name: 'auto-*' }]);

    const listed = json<{ rules: Rule[]; tools: string[] }>(await call('GET', rules()));
    assert.deepEqual(
      listed.rules.map((r) => r.rule_id),
      [rule.rule_id],
    );
    assert.ok(listed.tools.includes('create_tag') && listed.tools.includes('execute_sql'), 'every kind’s tools may be named');

    const changed = await call('PUT', `${rules()}/${rule.rule_id}`, {
      tool: 'create_tag',
      pattern: { name: 'bot-*' },
      effect: 'allow',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(json<Rule>(changed).pattern, { name: 'bot-*' });

    const bad = await call('POST', rules(), { tool: 'create_tag', pattern: { name: '[abc', 'a b': 'x' }, effect: 'allow' });
    assert.equal(bad.statusCode, 400);
    assert.match(json<{ detail: string }>(bad).detail, /glob of "name".*not valid.*"a b" is not an argument path/);
    const unknown = await call('POST', rules(), { tool: 'launch_rockets', effect: 'allow' });
    assert.equal(unknown.statusCode, 400);
    assert.match(json<{ detail: string }>(unknown).detail, /no tool named "launch_rockets"/);

    // A person who is no admin: their own rules only, never one that allows everything.
    const everything = { tool: '*', effect: 'allow' };
    assert.equal((await call('POST', rules(), everything, carolToken)).statusCode, 403);
    assert.equal(
      (await call('POST', rules(), { ...everything, tool: 'create_tag', scope: 'organization' }, carolToken)).statusCode,
      403,
    );
    assert.equal((await call('DELETE', `${rules()}/${rule.rule_id}`, undefined, carolToken)).statusCode, 404, "alice's own rule");
    const admins = await call('POST', rules(), { ...everything, scope: 'organization', note: 'trust the agent' });
    assert.equal(admins.statusCode, 201);
    assert.equal(json<Rule>(admins).allows_everything, true, 'shown as such');
    assert.equal((await call('DELETE', `${rules()}/${json<Rule>(admins).rule_id}`, undefined, carolToken)).statusCode, 403);
    assert.equal((await call('DELETE', `${rules()}/${json<Rule>(admins).rule_id}`)).statusCode, 204);

    assert.equal((await call('DELETE', `${rules(bob.org.id)}/${rule.rule_id}`, undefined, bob.token)).statusCode, 404);
    assert.equal((await call('GET', rules(), undefined, bob.token)).statusCode, 404, "another organization's rules");
    assert.equal((await call('DELETE', `${rules()}/${rule.rule_id}`)).statusCode, 204);
    assert.deepEqual(json<{ rules: Rule[] }>(await call('GET', rules())).rules, []);
  });

  test('an allow rule lets a matching call through without a pause, and the run record names it; others still ask', async () => {
    const rule = json<Rule>(await call('POST', rules(), { tool: 'create_tag', pattern: { name: 'auto-*' }, effect: 'allow' }));

    modelCalls('create_tag', { name: 'auto-1' });
    const through = json<Turn>(await call('POST', chat(), { messages: [{ role: 'user', content: 'Tag it auto-1.' }] }));
    assert.equal(through.turn_id, undefined, 'no pause');
    assert.match(through.text, /auto-1/);
    const [allowed] = await runRecordOf('auto-1');
    assert.deepEqual(
      [allowed?.name, allowed?.decision, allowed?.rule_id, allowed?.success],
      ['create_tag', 'allowed', rule.rule_id, true],
    );
    assert.match(allowed?.reason ?? '', /^Allowed by your rule to allow create_tag where name matches "auto-\*"/);

    modelCalls('create_tag', { name: 'manual' });
    const asks = json<Turn>(await call('POST', chat(), { messages: [{ role: 'user', content: 'Tag it manual.' }] }));
    assert.ok(asks.turn_id, 'a call the rule does not cover asks');
    await call('POST', `${chat()}/stop`, { turn_id: asks.turn_id });
  });

  test("the organization's deny rule refuses a call even when the person allows it, and the model reads why", async () => {
    await call('POST', rules(), { tool: 'delete_document', effect: 'allow' });
    const deny = json<Rule>(
      await call('POST', rules(), { tool: 'delete_document', effect: 'deny', scope: 'organization', note: 'keep everything' }),
    );
    modelCalls('delete_document', {});
    const turn = json<Turn>(await call('POST', chat(), { messages: [{ role: 'user', content: 'Delete it.' }] }));
    assert.equal(turn.turn_id, undefined);
    assert.match(turn.text, /Refused by the organization's rule to deny every call of delete_document \(keep everything\)/);
    const [denied] = await runRecordOf('delete');
    assert.deepEqual([denied?.decision, denied?.rule_id], ['denied', deny.rule_id]);
    assert.equal((await call('GET', `/v0/orgs/${alice.org.id}/documents/${docId}?include_content=false`)).statusCode, 200);
  });

  test('plan mode: writes are refused, reads run, and the model is told to answer with its plan', async () => {
    modelCalls('create_tag', { name: 'auto-2' });
    const turn = json<Turn>(await call('POST', chat(), { messages: [{ role: 'user', content: 'Tag it.' }], plan_mode: true }));
    assert.equal(turn.turn_id, undefined);
    assert.match(turn.text, /Plan mode: nothing may be changed until the person approves your plan/);
    const [refused] = await runRecordOf('plan');
    assert.equal(refused?.decision, 'denied');
    const asked = fake.requests.find(isAgent);
    assert.match(JSON.stringify(asked?.body.instructions ?? asked?.body.input), /Plan mode: this turn may not change anything/);
  });
});
