import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createApiToken, createUser, newId, SecretBox, setMembership, tables } from '@docagent/core';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { eq } from 'drizzle-orm';
import { json, type Member, seedMember, startTestApp, type TestApp, uploadText } from './helpers.ts';
import { type Delivery, type Endpoint, verifySignature, webhooksPath, webhookTestKit } from './webhook-helpers.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

/** Webhooks end to end: endpoints, signed deliveries to a local receiver, retries, the log, refusals. */

let t: TestApp;
let strict: TestApp;
let fake: FakeLlmServer;
let receiver: WebhookReceiver;
let alice: Member;
let bob: Member;

const SECRET = 'webhook tests server secret';

before(async () => {
  fake = await startFakeLlm();
  receiver = await WebhookReceiver.start();
  const common = { DOCAGENT_SECRET: SECRET, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' };
  t = await startTestApp({
    ...common,
    DOCAGENT_WORKERS: '2',
    DOCAGENT_WEBHOOK_ALLOW_PRIVATE: 'true',
    DOCAGENT_WEBHOOK_RETRY_DELAYS_SECONDS: '0,0',
    DOCAGENT_WEBHOOK_TIMEOUT_SECONDS: '1',
  });
  strict = await startTestApp({ ...common, DOCAGENT_WORKERS: '1', DOCAGENT_WEBHOOK_RETRY_DELAYS_SECONDS: '' });
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
beforeEach(() => {
  receiver.handler = () => ({ status: 200 });
  fake.reset();
});
after(async () => {
  await t.close();
  await strict.close();
  await receiver.close();
  await fake.close();
});

const base = (who: Member = alice) => webhooksPath(who);
const { call, createEndpoint, deliveriesOf, settledDelivery } = webhookTestKit(() => ({ server: t, who: alice, receiver }));

describe('webhooks', () => {
  test('an upload is delivered as a signed document.uploaded that the receiver verifies; the secret is shown once', async () => {
    const endpoint = await createEndpoint('/uploads', ['document.uploaded']);
    assert.match(endpoint.secret ?? '', /^whsec_/);
    const shown = json<Endpoint>(await call(t, 'GET', `${base()}/${endpoint.id}`));
    assert.equal(shown.secret, undefined, 'the secret is not shown again');
    const listed = json<{ webhooks: Endpoint[] }>(await call(t, 'GET', base()));
    assert.ok(listed.webhooks.every((w) => w.secret === undefined));
    const stored = await t.database.db.select().from(tables.webhookEndpoints).where(eq(tables.webhookEndpoints.id, endpoint.id));
    assert.ok(!stored[0]?.secretEncrypted.includes(endpoint.secret as string), 'stored sealed');
    assert.equal(new SecretBox(SECRET).open(stored[0]?.secretEncrypted as string), endpoint.secret);

    const documentId = await uploadText(t, alice, 'hook.txt', 'webhook me');
    const delivery = await settledDelivery(endpoint.id);
    assert.equal(delivery.status, 'succeeded', delivery.last_error ?? '');
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.last_status_code, 200);
    const [request] = receiver.to('/uploads');
    assert.ok(request);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['docagent-webhook-id'], delivery.event_id);
    assert.ok(verifySignature(endpoint.secret as string, request.headers, request.body), 'the signature verifies');
    const body = JSON.parse(request.body) as Record<string, unknown>;
    assert.deepEqual(
      { ...body, created_at: typeof body.created_at },
      {
        id: delivery.event_id,
        type: 'document.uploaded',
        created_at: 'string',
        organization_id: alice.org.id,
        data: { document_id: documentId },
      },
    );
  });

  test('a receiver answering 500 then 200 is retried and ends delivered, both attempts counted', async () => {
    // Only the ping is looked at: the text of the first test's upload may become ready meanwhile,
    // and its document.text_ready goes to this endpoint too, as a delivery of its own.
    const isPing = (r: { path: string; body: string }) => r.path === '/flaky' && JSON.parse(r.body).type === 'ping';
    let calls = 0;
    receiver.handler = (r) => (isPing(r) ? { status: ++calls === 1 ? 500 : 200 } : { status: 200 });
    const endpoint = await createEndpoint('/flaky', ['document.text_ready']);
    const sent = await call(t, 'POST', `${base()}/${endpoint.id}/test`);
    assert.equal(sent.statusCode, 202, sent.body);
    assert.equal(json<Delivery>(sent).event, 'ping');
    const delivery = await settledDelivery(endpoint.id, (d) => d.id === json<Delivery>(sent).id);
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attempts, 2);
    assert.equal(delivery.last_status_code, 200);
    const requests = receiver.to('/flaky').filter(isPing);
    assert.equal(requests.length, 2);
    assert.equal(requests[0]?.headers['docagent-webhook-id'], requests[1]?.headers['docagent-webhook-id'], 'one event id');
    assert.equal(requests[0]?.body, requests[1]?.body, 'one body');
  });

  test('a redirect and a silent receiver are failures that say why, after every attempt', async () => {
    receiver.handler = (r) => (r.path === '/moved' ? { status: 302, headers: { location: 'http://10.0.0.1/inside' } } : 'hang');
    const moved = await createEndpoint('/moved', ['document.uploaded']);
    const silent = await createEndpoint('/silent', ['document.uploaded']);
    await call(t, 'POST', `${base()}/${moved.id}/test`);
    await call(t, 'POST', `${base()}/${silent.id}/test`);
    const redirected = await settledDelivery(moved.id);
    assert.equal(redirected.status, 'failed');
    assert.equal(redirected.attempts, 3);
    assert.equal(redirected.last_status_code, 302);
    assert.match(redirected.last_error ?? '', /redirected \(302\) to http:\/\/10\.0\.0\.1\/inside; redirects are not followed/);
    const timedOut = await settledDelivery(silent.id);
    assert.equal(timedOut.status, 'failed');
    assert.equal(timedOut.attempts, 3);
    assert.equal(timedOut.last_status_code, null);
    assert.match(timedOut.last_error ?? '', /did not answer within 1 s/);
  });

  test('send again re-queues a delivery: the same event id and body, signed anew', async () => {
    let down = true;
    receiver.handler = (r) => (r.path === '/again' && down ? { status: 503 } : { status: 200 });
    const endpoint = await createEndpoint('/again', ['document.uploaded']);
    await call(t, 'POST', `${base()}/${endpoint.id}/test`);
    const failed = await settledDelivery(endpoint.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.last_error ?? '', /answered 503: receiver says no/);
    down = false;
    const again = await call(t, 'POST', `/v0/orgs/${alice.org.id}/webhook-deliveries/${failed.id}/redeliver`);
    assert.equal(again.statusCode, 202, again.body);
    const delivered = await settledDelivery(endpoint.id, (d) => d.status === 'succeeded');
    assert.equal(delivered.id, failed.id);
    assert.equal(delivered.attempts, 4);
    const requests = receiver.to('/again');
    assert.equal(requests.length, 4);
    assert.ok(requests.every((r) => r.body === requests[0]?.body && r.headers['docagent-webhook-id'] === failed.event_id));
    assert.ok(verifySignature(endpoint.secret as string, requests[3]?.headers ?? {}, requests[3]?.body ?? ''));
  });

  test('rolling the secret signs later deliveries with the new one; update and delete', async () => {
    const endpoint = await createEndpoint('/rolled', ['document.uploaded']);
    const rolled = await call(t, 'POST', `${base()}/${endpoint.id}/secret`);
    assert.equal(rolled.statusCode, 200, rolled.body);
    const secret = json<Endpoint>(rolled).secret as string;
    assert.notEqual(secret, endpoint.secret);
    await call(t, 'POST', `${base()}/${endpoint.id}/test`);
    await settledDelivery(endpoint.id);
    const [request] = receiver.to('/rolled');
    assert.ok(verifySignature(secret, request?.headers ?? {}, request?.body ?? ''));
    assert.ok(!verifySignature(endpoint.secret as string, request?.headers ?? {}, request?.body ?? ''));

    const put = await call(t, 'PUT', `${base()}/${endpoint.id}`, {
      url: endpoint.url,
      events: ['llm.completed', 'llm.error'],
      description: 'prompts',
      enabled: false,
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(json<Endpoint>(put).events, ['llm.completed', 'llm.error']);
    assert.equal(json<Endpoint>(put).enabled, false);
    const test2 = await call(t, 'POST', `${base()}/${endpoint.id}/test`);
    assert.equal(test2.statusCode, 409);
    assert.match(json<{ detail: string }>(test2).detail, /disabled; enable it/);
    assert.equal((await call(t, 'DELETE', `${base()}/${endpoint.id}`)).statusCode, 204);
    assert.equal((await call(t, 'GET', `${base()}/${endpoint.id}`)).statusCode, 404);
  });

  test('bad input is refused with what to do, never a 500', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ url: 'ftp://x.test/', events: ['document.uploaded'] }, /http:\/\/ or https:\/\//],
      [{ url: receiver.url('/x'), events: [] }, /at least one event/],
      [{ url: receiver.url('/x'), events: ['document.deleted'] }, /events/],
      [{ url: 'not a url', events: ['document.uploaded'] }, /not a URL/],
      [{ url: receiver.url('/x'), events: ['document.uploaded'], extra: 1 }, /extra|Unrecognized/i],
      [{ events: ['document.uploaded'] }, /url/],
    ];
    for (const [payload, message] of cases) {
      const res = await call(t, 'POST', base(), payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      assert.match(json<{ detail: string }>(res).detail, message);
    }
    assert.equal((await call(t, 'GET', `${base()}/${newId()}/deliveries?limit=0`)).statusCode, 400);
    assert.equal((await call(t, 'GET', `${base()}/nope`)).statusCode, 404);
    assert.equal((await call(t, 'POST', `/v0/orgs/${alice.org.id}/webhook-deliveries/nope/redeliver`)).statusCode, 404);
  });

  test("another organization's endpoints and deliveries are not found; non-admins are refused", async () => {
    const endpoint = await createEndpoint('/private-to-alice', ['document.uploaded']);
    await call(t, 'POST', `${base()}/${endpoint.id}/test`);
    const delivery = await settledDelivery(endpoint.id);
    for (const [method, url] of [
      ['GET', `${base(bob)}/${endpoint.id}`],
      ['PUT', `${base(bob)}/${endpoint.id}`],
      ['DELETE', `${base(bob)}/${endpoint.id}`],
      ['POST', `${base(bob)}/${endpoint.id}/secret`],
      ['POST', `${base(bob)}/${endpoint.id}/test`],
      ['GET', `${base(bob)}/${endpoint.id}/deliveries`],
      ['POST', `/v0/orgs/${bob.org.id}/webhook-deliveries/${delivery.id}/redeliver`],
    ] as const) {
      const payload = method === 'PUT' ? { url: receiver.url('/x'), events: ['document.uploaded'] } : undefined;
      const res = await call(t, method, url, payload, bob.token);
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    assert.equal(json<{ webhooks: Endpoint[] }>(await call(t, 'GET', base(bob), undefined, bob.token)).webhooks.length, 0);

    const carol = await createUser(t.database.db, { email: 'carol@example.test', password: 'correct horse battery staple' });
    await setMembership(t.database.db, { orgId: alice.org.id, userId: carol.id, role: 'user' });
    const token = (await createApiToken(t.database.db, { orgId: alice.org.id, name: 'carol', createdBy: carol.id })).token;
    for (const [method, url] of [
      ['GET', base()],
      ['POST', base()],
      ['GET', `${base()}/${endpoint.id}`],
      ['POST', `${base()}/${endpoint.id}/test`],
      ['GET', `${base()}/${endpoint.id}/deliveries`],
      ['POST', `/v0/orgs/${alice.org.id}/webhook-deliveries/${delivery.id}/redeliver`],
    ] as const) {
      const payload =
        method === 'POST' && url === base() ? { url: receiver.url('/x'), events: ['document.uploaded'] } : undefined;
      const res = await call(t, method, url, payload, token);
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
      assert.match(json<{ detail: string }>(res).detail, /Only an organization's admins/);
    }
  });

  test('private addresses are refused without DOCAGENT_WEBHOOK_ALLOW_PRIVATE, when saved and when sent', async () => {
    const carl = await seedMember(strict.database, 'carl');
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]:8080/hook', 'http://0.0.0.0/']) {
      const res = await call(strict, 'POST', base(carl), { url, events: ['document.uploaded'] }, carl.token);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.match(json<{ detail: string }>(res).detail, /private or local address.*DOCAGENT_WEBHOOK_ALLOW_PRIVATE=true/);
    }
    // A public address when saved that is private when sent (as if DNS changed): refused then too.
    const created = await call(
      strict,
      'POST',
      base(carl),
      { url: 'http://93.184.216.34/hook', events: ['document.uploaded'] },
      carl.token,
    );
    assert.equal(created.statusCode, 201, created.body);
    const endpoint = json<Endpoint>(created);
    await strict.database.db
      .update(tables.webhookEndpoints)
      .set({ url: receiver.url('/never') })
      .where(eq(tables.webhookEndpoints.id, endpoint.id));
    await call(strict, 'POST', `${base(carl)}/${endpoint.id}/test`, undefined, carl.token);
    let delivery: Delivery | undefined;
    for (let i = 0; i < 600 && !delivery; i++) {
      delivery = (await deliveriesOf(endpoint.id, strict, carl)).deliveries.find((d) => d.status !== 'pending');
      if (!delivery) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(delivery?.status, 'failed');
    assert.equal(delivery?.attempts, 1);
    assert.match(delivery?.last_error ?? '', /private or local address/);
    assert.equal(receiver.to('/never').length, 0);
  });
});
