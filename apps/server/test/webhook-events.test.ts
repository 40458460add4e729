import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { newId, tables } from '@docagent/core';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { type Member, seedMember, startTestApp, type TestApp, uploadText } from './helpers.ts';
import { webhookTestKit } from './webhook-helpers.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** Webhooks of the events the product publishes (prompt outcomes, agent turns), and a backlog of 10,000. */

let t: TestApp;
let idle: TestApp;
let fake: FakeLlmServer;
let receiver: WebhookReceiver;
let alice: Member;

before(async () => {
  fake = await startFakeLlm();
  receiver = await WebhookReceiver.start();
  const common = {
    DOCAGENT_SECRET: 'webhook tests server secret',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
    DOCAGENT_WEBHOOK_ALLOW_PRIVATE: 'true',
  };
  t = await startTestApp({ ...common, DOCAGENT_WORKERS: '2' });
  // Nothing is ever delivered here: its queue only fills.
  idle = await startTestApp({ ...common, DOCAGENT_WORKERS: '0' });
  alice = await seedMember(t.database, 'alice');
});
beforeEach(() => fake.reset());
after(async () => {
  await t.close();
  await idle.close();
  await receiver.close();
  await fake.close();
});

const { call, createEndpoint, deliveriesOf, settledDelivery } = webhookTestKit(() => ({ server: t, who: alice, receiver }));

describe('webhook events', () => {
  test('prompt outcomes and agent turns are delivered (llm.completed, agent.turn_finished, agent.approval_needed)', async () => {
    const endpoint = await createEndpoint('/everything', [
      'llm.completed',
      'llm.error',
      'agent.approval_needed',
      'agent.turn_finished',
    ]);
    fake.setHandler(() => ({ text: JSON.stringify({ total: 1 }) }));
    // The organization's default prompt runs on every document once its text is ready.
    const documentId = await uploadText(t, alice, 'invoice.txt', 'Invoice total 1');
    const completed = await settledDelivery(
      endpoint.id,
      (d) => d.event === 'llm.completed' && (d.payload.data as Record<string, unknown>).document_id === documentId,
    );
    assert.equal(completed.status, 'succeeded');
    const data0 = completed.payload.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(data0).sort(), ['document_id', 'prompt_id', 'prompt_revid', 'prompt_version']);

    fake.setHandler(() => ({ text: 'Hello.' }));
    const chat = await call(t, 'POST', `/v0/orgs/${alice.org.id}/agent/chat`, {
      subject: { kind: 'document', id: documentId },
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Say hello.' }],
    });
    assert.equal(chat.statusCode, 200, chat.body);
    const finished = await settledDelivery(endpoint.id, (d) => d.event === 'agent.turn_finished');
    const data = finished.payload.data as Record<string, unknown>;
    assert.equal(data.status, 'finished');
    assert.deepEqual(data.subject, { kind: 'document', id: documentId });

    // A write the person must approve pauses the turn.
    fake.setHandler((request) =>
      request.body?.tools
        ? { toolCalls: [{ name: 'create_tag', arguments: { name: 'urgent', color: '#dc2626' } }] }
        : { text: '{}' },
    );
    const paused = await call(t, 'POST', `/v0/orgs/${alice.org.id}/agent/chat`, {
      subject: { kind: 'document', id: documentId },
      model: 'openai:gpt-4.1',
      messages: [{ role: 'user', content: 'Tag it as urgent.' }],
    });
    assert.equal(paused.statusCode, 200, paused.body);
    const approval = await settledDelivery(endpoint.id, (d) => d.event === 'agent.approval_needed');
    const pending = approval.payload.data as Record<string, unknown>;
    assert.equal(pending.status, 'paused');
    assert.deepEqual(
      (pending.calls as Array<{ name: string }>).map((c) => c.name),
      ['create_tag'],
    );
  });

  test('10,000 undelivered events: the queue holds them and the log pages, newest first', async () => {
    const dana = await seedMember(idle.database, 'dana');
    const endpoint = await createEndpoint('/backlog', ['document.uploaded'], idle, dana);
    const start = Date.now() - 20_000_000;
    for (let chunk = 0; chunk < 10; chunk++) {
      const rows = Array.from({ length: 1000 }, (_, i) => {
        const n = chunk * 1000 + i;
        const eventId = newId();
        return {
          id: newId(),
          orgId: dana.org.id,
          endpointId: endpoint.id,
          eventId,
          event: 'document.uploaded',
          payload: { id: eventId, type: 'document.uploaded', n },
          nextAttemptAt: new Date(start + n * 1000),
          createdAt: new Date(start + n * 1000),
        };
      });
      await idle.database.db.insert(tables.webhookDeliveries).values(rows);
      await idle.queue.scheduleWebhookAttempts(
        rows.map((r) => ({ deliveryId: r.id, due: r.nextAttemptAt.toISOString(), attempt: 1 })),
      );
    }
    await uploadText(idle, dana, 'one more.txt', 'still works');
    let first = await deliveriesOf(endpoint.id, idle, dana, '?limit=50');
    for (let i = 0; i < 100 && first.total_count < 10_001; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      first = await deliveriesOf(endpoint.id, idle, dana, '?limit=50');
    }
    assert.equal(first.total_count, 10_001);
    assert.equal(first.deliveries.length, 50);
    assert.equal(first.deliveries[0]?.payload.organization_id, dana.org.id, 'the newest is the real upload');
    assert.equal(first.deliveries[1]?.payload.n, 9999);
    const last = await deliveriesOf(endpoint.id, idle, dana, '?skip=9990&limit=50&status=pending');
    assert.equal(last.total_count, 10_001);
    assert.deepEqual(
      last.deliveries.map((d) => d.payload.n),
      [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    );
    assert.equal((await deliveriesOf(endpoint.id, idle, dana, '?status=succeeded')).total_count, 0);
  });
});
