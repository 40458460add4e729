import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DomainEvent } from '@docagent/core';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/** The in-process event bus: what documents, notes and agent turns announce (the webhooks deliver it). */

let t: TestApp;
let fake: FakeLlmServer;
let alice: Awaited<ReturnType<typeof seedMember>>;
const seen: DomainEvent[] = [];

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  alice = await seedMember(t.database, 'events');
  t.events.subscribe('*', (event) => {
    seen.push(event);
  });
});
after(async () => {
  await t.close();
  await fake.close();
});

const base = () => `/v0/orgs/${alice.org.id}`;
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(alice.token), payload });

/** Waits for an event the job queue publishes once its job is done. */
async function eventually(match: (e: DomainEvent) => boolean): Promise<DomainEvent> {
  for (let i = 0; i < 600; i++) {
    const found = seen.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the event never came');
}

describe('events', () => {
  test('an upload announces document.uploaded, then text_ready; a broken PDF document.error with the reason', async () => {
    const upload = async (name: string, bytes: Buffer) => {
      const res = await post(`${base()}/documents`, { documents: [{ name, content: bytes.toString('base64') }] });
      assert.equal(res.statusCode, 200, res.body);
      return json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id as string;
    };
    const good = await upload('hello.txt', Buffer.from('hello events'));
    assert.ok(seen.some((e) => e.type === 'document.uploaded' && e.documentId === good && e.orgId === alice.org.id));
    await eventually((e) => e.type === 'document.text_ready' && e.documentId === good);

    const broken = await upload('broken.pdf', Buffer.from('%PDF-1.7\nthis is not a PDF body\n%%EOF\n'));
    const failed = await eventually((e) => e.type === 'document.error' && e.documentId === broken);
    assert.ok(failed.type === 'document.error' && (failed.error ?? '').length > 0);
  });

  test('notes announce their changes, and a finished agent turn agent.action_completed with its calls', async () => {
    const project = json<{ project_id: string }>(await post(`${base()}/projects`, { name: 'Evented' }));
    const note = json<{ note_id: string }>(
      await post(`${base()}/projects/${project.project_id}/notes`, { name: 'N', content: 'a' }),
    );
    await eventually((e) => e.type === 'note.created' && e.noteId === note.note_id && e.source === 'person');

    // The first step lists the notes; once it has their result, the model answers.
    fake.setHandler((request) =>
      JSON.stringify(request.body.input ?? []).includes('function_call_output')
        ? { text: 'You have one note, N.' }
        : { toolCalls: [{ name: 'list_notes', arguments: {} }] },
    );
    const res = await post(`${base()}/agent/chat`, {
      subject: { kind: 'project', id: project.project_id },
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'What notes do I have?' }],
    });
    assert.equal(res.statusCode, 200, res.body);
    const done = await eventually((e) => e.type === 'agent.action_completed');
    assert.ok(done.type === 'agent.action_completed');
    assert.deepEqual(done.subject, { kind: 'project', id: project.project_id });
    assert.deepEqual(done.toolCalls, [{ name: 'list_notes', decision: 'allowed', success: true }]);
    assert.equal(done.success, true);
  });
});
