import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createApiToken, createUser, setMembership } from '@docagent/core';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, settledDocument, startTestApp, type TestApp, uploadText } from './helpers.ts';

/**
 * Undo of a turn's last applied write over HTTP (issue 20): the agent's write runs through the fake
 * provider and an approval, then POST .../agent/turns/{turn_id}/undo makes the version before it
 * current again, or says why it cannot.
 */

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;
/** A member of alice's organization who is no admin. */
let carolToken: string;
let docId: string;

type Subject = { kind: string; id: string };
interface Turn {
  turn_id?: string;
  text: string;
  tool_calls?: Array<{ id: string; name: string }>;
}
interface Undo {
  turn_id: string;
  call_id: string;
  tool: string;
  artifact: string;
  ids: Record<string, string>;
  version: number | null;
  restored_version: number | null;
  message: string;
}
interface AuditedCall {
  call_id: string;
  name: string;
  arguments: Record<string, unknown>;
  approval: string;
  success: boolean;
  output?: Record<string, unknown>;
}

const org = (who = alice) => `/v0/orgs/${who.org.id}`;
const post = (url: string, payload: object = {}, token = alice.token) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const put = (url: string, payload: object, token = alice.token) =>
  t.app.inject({ method: 'PUT', url, headers: bearer(token), payload });
const get = (url: string, token = alice.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const undo = (turnId: string, token = alice.token, who = alice) => post(`${org(who)}/agent/turns/${turnId}/undo`, {}, token);

const responseFormat = (properties: Record<string, unknown>) => strictResponseFormat(properties);

const isExtraction = (r: RecordedRequest) => Boolean(r.body.text?.format?.schema);
const isRewrite = (r: RecordedRequest) =>
  !r.body.tools && JSON.stringify(r.body.instructions ?? r.body.input).includes('You rewrite one Markdown note');
const toolOutputs = (r: RecordedRequest) =>
  ((r.body.input ?? []) as Array<{ type?: string }>).filter((item) => item.type === 'function_call_output');

/** The model calls each tool in turn (one per step), then says it is done; other model calls get plain answers. */
function modelCalls(...calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
  fake.setHandler((r): FakeReply => {
    if (isRewrite(r)) return { text: '# Plants\n\n- water the fern\n- repot the cactus\n' };
    if (isExtraction(r) || !r.body.tools) return { text: '{"document_type": "memo", "summary": "A memo.", "key_facts": []}' };
    const call = calls[toolOutputs(r).length];
    return call ? { toolCalls: [call] } : { text: 'Done.' };
  });
}

/** A turn on `subject` whose one write the person approves; answers its id once it has ended. */
async function approvedTurn(
  subject: Subject,
  name: string,
  args: Record<string, unknown>,
  extra: { thread_id?: string } = {},
  token = alice.token,
): Promise<string> {
  modelCalls({ name, arguments: args });
  const paused = json<Turn>(
    await post(`${org()}/agent/chat`, { subject, messages: [{ role: 'user', content: `Please ${name}.` }], ...extra }, token),
  );
  assert.ok(paused.turn_id, `the turn waits for approval: ${JSON.stringify(paused)}`);
  const call = paused.tool_calls?.[0];
  assert.equal(call?.name, name);
  const done = await post(
    `${org()}/agent/chat/approve`,
    { turn_id: paused.turn_id, approvals: [{ call_id: call?.id, approved: true }] },
    token,
  );
  assert.equal(done.statusCode, 200, done.body);
  assert.equal(json<Turn>(done).text, 'Done.');
  return paused.turn_id;
}

const documentSubject = (): Subject => ({ kind: 'document', id: docId });

async function createSchema(name: string, properties: Record<string, unknown>) {
  const res = await post(`${org()}/schemas`, { name, response_format: responseFormat(properties) });
  assert.equal(res.statusCode, 200, res.body);
  return json<{ schema_id: string; schema_revid: string; schema_version: number }>(res);
}

async function runRecord(turnId: string): Promise<AuditedCall[]> {
  const res = await get(`${org()}/agent/runs/${turnId}`);
  assert.equal(res.statusCode, 200, res.body);
  return json<{ tool_calls: AuditedCall[] }>(res).tool_calls;
}

function assertRefused(res: { statusCode: number; body: string }, status: number, detail: RegExp) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(json<{ detail: string }>(res as never).detail, detail);
}

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
  const carol = await createUser(t.database.db, { email: 'carol@example.test', password: 'correct horse battery' });
  await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.id, role: 'user' });
  carolToken = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.id })).token;
  modelCalls();
  docId = await uploadText(t, alice, 'memo.txt', 'A memo about the plants in the office.');
  await settledDocument(t, alice, docId);
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await fake.close();
});

describe('undo of a turn’s last applied write', () => {
  test('a schema update undone: the previous version’s definition is current again, as a new version', async () => {
    const v1 = await createSchema('Invoice', { total: { type: 'number' } });
    const turnId = await approvedTurn(documentSubject(), 'update_schema', {
      schema_id: v1.schema_id,
      name: 'Invoice v2',
      response_format: responseFormat({ total: { type: 'number' }, currency: { type: 'string' } }),
    });

    const res = await undo(turnId);
    assert.equal(res.statusCode, 200, res.body);
    const undone = json<Undo>(res);
    assert.deepEqual(
      [undone.turn_id, undone.tool, undone.artifact, undone.version, undone.restored_version, undone.ids.schema_id],
      [turnId, 'update_schema', 'schema', 3, 1, v1.schema_id],
    );
    assert.match(undone.message, /Schema "Invoice" has version 1's definition again, saved as version 3/);
    const current = json<{ name: string; schema_version: number; response_format: unknown }>(
      await get(`${org()}/schemas/${undone.ids.schema_revid}`),
    );
    assert.deepEqual(
      [current.name, current.schema_version, current.response_format],
      ['Invoice', 3, responseFormat({ total: { type: 'number' } })],
    );
    const versions = json<{ schemas: Array<{ schema_version: number }> }>(await get(`${org()}/schemas/${v1.schema_id}/versions`));
    assert.deepEqual(
      versions.schemas.map((s) => s.schema_version),
      [3, 2, 1],
      'history is kept',
    );

    const calls = await runRecord(turnId);
    const last = calls.at(-1);
    assert.deepEqual(
      [last?.name, last?.approval, last?.success, last?.arguments],
      ['undo', 'user', true, { call_id: undone.call_id, tool: 'update_schema' }],
    );

    assertRefused(await undo(turnId), 409, /update_schema, call .* was undone already/);
  });

  test('a prompt update undone: its content and settings are those of the version before', async () => {
    const created = await post(`${org()}/prompts`, { name: 'Plants', content: 'List the plants.' });
    assert.equal(created.statusCode, 200, created.body);
    const v1 = json<{ prompt_id: string; prompt_version: number }>(created);
    const thread = json<{ thread_id: string }>(await post(`${org()}/agent/threads`, { subject: documentSubject() }));
    const turnId = await approvedTurn(
      documentSubject(),
      'update_prompt',
      { prompt_id: v1.prompt_id, content: 'List the plants and how often each is watered.', model: 'openai:gpt-4.1' },
      { thread_id: thread.thread_id },
    );
    const workingPrompt = async () =>
      json<{ working_state: { prompt_revid?: string } }>(await get(`${org()}/agent/threads/${thread.thread_id}`)).working_state
        .prompt_revid;
    const v2 = await workingPrompt();
    assert.ok(v2, 'the conversation works on the updated prompt');

    const undone = json<Undo>(await undo(turnId));
    assert.deepEqual(
      [undone.artifact, undone.version, undone.restored_version, undone.ids.prompt_id],
      ['prompt', 3, 1, v1.prompt_id],
    );
    const current = json<{ content: string; prompt_version: number; model: string | null }>(
      await get(`${org()}/prompts/${undone.ids.prompt_revid}`),
    );
    assert.deepEqual([current.content, current.prompt_version], ['List the plants.', 3]);
    assert.notEqual(current.model, 'openai:gpt-4.1', 'the model goes back too');
    assert.equal(await workingPrompt(), undone.ids.prompt_revid, 'the conversation works on what is current again');
  });

  test('a note rewrite undone: the text before the rewrite is the current version again', async () => {
    const project = json<{ project_id: string }>(await post(`${org()}/projects`, { name: 'Office' }));
    const notes = `${org()}/projects/${project.project_id}/notes`;
    const note = json<{ note_id: string }>(await post(notes, { name: 'Plants', content: '# Plants\n\n- water the fern\n' }));
    const turnId = await approvedTurn({ kind: 'project', id: project.project_id }, 'rewrite_note', {
      note_id: note.note_id,
      request: 'repot the cactus',
    });
    const rewritten = json<{ version: number; content: string }>(await get(`${notes}/${note.note_id}`));
    assert.deepEqual([rewritten.version, rewritten.content], [2, '# Plants\n\n- water the fern\n- repot the cactus\n']);

    const undone = json<Undo>(await undo(turnId));
    assert.deepEqual(
      [undone.artifact, undone.version, undone.restored_version, undone.ids.note_id],
      ['note', 3, 1, note.note_id],
    );
    const current = json<{ version: number; content: string }>(await get(`${notes}/${note.note_id}`));
    assert.deepEqual([current.version, current.content], [3, '# Plants\n\n- water the fern\n']);
    const v3 = json<{ source: string; summary: string }>(await get(`${notes}/${note.note_id}/versions/3`));
    assert.equal(v3.source, 'person');
    assert.match(v3.summary, /Undid the agent's rewrite/);
  });

  test('an extraction edit undone: the field has its previous value again, and an added field goes', async () => {
    const result = async () => {
      const { updated_at: _, ...rest } = json<{
        updated_llm_result: Record<string, unknown>;
        is_edited: boolean;
        updated_at: string;
      }>(await get(`${org()}/llm/result/${docId}?prompt_revid=default`));
      return rest;
    };
    const before = await result();
    assert.equal(before.is_edited, false);

    const edited = await approvedTurn(documentSubject(), 'update_extraction_field', {
      prompt_revid: 'default',
      path: 'summary',
      value: 'About the fern.',
    });
    assert.equal((await result()).updated_llm_result.summary, 'About the fern.');
    const undone = json<Undo>(await undo(edited));
    assert.deepEqual([undone.artifact, undone.version, undone.ids.document_id], ['extraction_result', null, docId]);
    assert.match(undone.message, /summary of the extraction result is back to "A memo\."/);
    assert.deepEqual(await result(), before, 'the value, and is_edited, as before');

    const added = await approvedTurn(documentSubject(), 'update_extraction_field', {
      prompt_revid: 'default',
      path: 'room',
      value: 'Kitchen',
    });
    assert.equal((await result()).updated_llm_result.room, 'Kitchen');
    const removed = json<Undo>(await undo(added));
    assert.match(removed.message, /room of the extraction result is removed again/);
    assert.deepEqual(await result(), before);
  });

  test('an edit after the write: undo refuses, naming the version it is at now', async () => {
    const v1 = await createSchema('Receipt', { total: { type: 'number' } });
    const turnId = await approvedTurn(documentSubject(), 'update_schema', {
      schema_id: v1.schema_id,
      response_format: responseFormat({ total: { type: 'number' }, shop: { type: 'string' } }),
    });
    const later = await put(`${org()}/schemas/${v1.schema_id}`, {
      response_format: responseFormat({ total: { type: 'number' }, date: { type: 'string' } }),
    });
    assert.equal(later.statusCode, 200, later.body);

    assertRefused(
      await undo(turnId),
      409,
      /Schema "Receipt" changed after this call saved version 2: it is at version 3 now, and undoing the call would overwrite/,
    );
    const versions = json<{ schemas: unknown[] }>(await get(`${org()}/schemas/${v1.schema_id}/versions`));
    assert.equal(versions.schemas.length, 3, 'nothing was written');

    // An extraction result has no versions: a change of its values since is what refuses.
    const edit = await approvedTurn(documentSubject(), 'update_extraction_field', {
      prompt_revid: 'default',
      path: 'summary',
      value: 'Edited once.',
    });
    const current = json<{ updated_llm_result: Record<string, unknown> }>(
      await get(`${org()}/llm/result/${docId}?prompt_revid=default`),
    );
    const byHand = await put(`${org()}/llm/result/${docId}?prompt_revid=default`, {
      updated_llm_result: { ...current.updated_llm_result, summary: 'Edited by hand.' },
    });
    assert.equal(byHand.statusCode, 200, byHand.body);
    assertRefused(await undo(edit), 409, /changed after this call set summary/);
  });

  test('nothing to undo, a create, a rejected write, a paused turn: each is refused and says why', async () => {
    // A turn that only read.
    modelCalls({ name: 'list_schemas', arguments: {} });
    await post(`${org()}/agent/chat`, { subject: documentSubject(), messages: [{ role: 'user', content: 'List them.' }] });
    const [readOnly] = json<{ runs: Array<{ turn_id: string }> }>(await get(`${org()}/agent/runs?limit=1`)).runs;
    assertRefused(await undo(readOnly?.turn_id as string), 409, /applied no write, so there is nothing to undo/);

    // A create: no earlier version to go back to.
    const created = await approvedTurn(documentSubject(), 'create_schema', {
      name: 'Brand new',
      response_format: responseFormat({ total: { type: 'number' } }),
    });
    assertRefused(
      await undo(created),
      409,
      /last write of turn .* was create_schema, which cannot be undone: it made something new/,
    );

    // A rejected write was never applied.
    const v1 = await createSchema('Rejected', { total: { type: 'number' } });
    modelCalls({ name: 'update_schema', arguments: { schema_id: v1.schema_id, name: 'Nope' } });
    const paused = json<Turn>(
      await post(`${org()}/agent/chat`, { subject: documentSubject(), messages: [{ role: 'user', content: 'Rename.' }] }),
    );
    assertRefused(await undo(paused.turn_id as string), 409, /is still paused/);
    await post(`${org()}/agent/chat/approve`, {
      turn_id: paused.turn_id,
      approvals: [{ call_id: paused.tool_calls?.[0]?.id, approved: false }],
    });
    assertRefused(await undo(paused.turn_id as string), 409, /applied no write/);
  });

  test('only the turn’s own user or an admin may undo it; another organization’s turn is not found', async () => {
    const v1 = await createSchema('Owned', { total: { type: 'number' } });
    const turnId = await approvedTurn(documentSubject(), 'update_schema', { schema_id: v1.schema_id, name: 'Owned 2' });

    assertRefused(await undo(turnId, bob.token, bob), 404, /Turn .* was not found/);
    assert.equal((await undo(turnId, bob.token)).statusCode, 404, "bob is no member of alice's organization");
    assertRefused(await undo(turnId, carolToken), 404, /Turn .* was not found/);
    assertRefused(await undo('0123456789abcdef01234567'), 404, /Turn .* was not found/);
    assertRefused(await undo('x'.repeat(65)), 404, /ids are 24 hexadecimal characters/);

    const res = await undo(turnId);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json<{ name: string }>(await get(`${org()}/schemas/${json<Undo>(res).ids.schema_revid}`)).name, 'Owned');
  });

  test('two undos at once: one undoes, the other is refused as done already', async () => {
    const v1 = await createSchema('Raced', { total: { type: 'number' } });
    const turnId = await approvedTurn(documentSubject(), 'update_schema', { schema_id: v1.schema_id, name: 'Raced 2' });
    const answers = await Promise.all([undo(turnId), undo(turnId)]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409]);
    assert.match(answers.find((a) => a.statusCode === 409)?.body ?? '', /undone already/);
    const versions = json<{ schemas: unknown[] }>(await get(`${org()}/schemas/${v1.schema_id}/versions`));
    assert.equal(versions.schemas.length, 3, 'one new version, not two');
  });

  test('the tools say which writes can be undone', async () => {
    const tools = json<{ undoable: string[] }>(await get(`${org()}/agent/tools?subject_kind=document`));
    assert.deepEqual(tools.undoable.sort(), ['update_extraction_field', 'update_prompt', 'update_schema']);
    const projectTools = json<{ undoable: string[] }>(await get(`${org()}/agent/tools?subject_kind=project`));
    assert.ok(projectTools.undoable.includes('rewrite_note'));
  });
});
