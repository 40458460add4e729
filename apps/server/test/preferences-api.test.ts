import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PREFERENCE_LIMITS } from '@docagent/core';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
after(() => t.close());

const put = (key: string, payload: object, token = alice.token) =>
  t.app.inject({ method: 'PUT', url: `/v0/account/preferences/${key}`, headers: bearer(token), payload });
const preferencesOf = async (token: string) =>
  json<{ preferences: Record<string, unknown> }>(
    await t.app.inject({ method: 'GET', url: '/v0/account/preferences', headers: bearer(token) }),
  ).preferences;

test('a preference is kept per person, the last write winning', async () => {
  assert.deepEqual(await preferencesOf(alice.token), {});
  const layout = { leftWidth: 300, rightOpen: false };
  assert.equal((await put('document-panels', { value: layout })).statusCode, 204);
  assert.equal((await put('chat-settings', { value: { approvalMode: 'ask' } })).statusCode, 204);
  assert.equal((await put('document-panels', { value: { ...layout, leftWidth: 280 } })).statusCode, 204);
  assert.deepEqual(await preferencesOf(alice.token), {
    'document-panels': { leftWidth: 280, rightOpen: false },
    'chat-settings': { approvalMode: 'ask' },
  });
  assert.deepEqual(await preferencesOf(bob.token), {}, "one person's preferences are not another's");
  assert.equal((await put('document-panels', { value: null })).statusCode, 204);
  assert.equal((await preferencesOf(alice.token))['document-panels'], null);
});

test('bad keys, missing or oversized values and too many keys are refused, saying why', async () => {
  const badKey = await put('Not%20a%20key', { value: 1 });
  assert.equal(badKey.statusCode, 400);
  assert.match(json<{ detail: string }>(badKey).detail, /is not valid: use 1 to 64 lower-case letters/);

  const missing = await put('empty', {});
  assert.equal(missing.statusCode, 400);
  assert.match(json<{ detail: string }>(missing).detail, /value/);

  const big = await put('big', { value: 'x'.repeat(PREFERENCE_LIMITS.valueBytes) });
  assert.equal(big.statusCode, 400);
  assert.match(json<{ detail: string }>(big).detail, /holds at most 16384/);

  for (let i = 0; i < PREFERENCE_LIMITS.keys; i++) {
    assert.equal((await put(`key-${i}`, { value: i }, bob.token)).statusCode, 204);
  }
  const oneMore = await put('one-more', { value: 1 }, bob.token);
  assert.equal(oneMore.statusCode, 400);
  assert.match(json<{ detail: string }>(oneMore).detail, /at most 50 preferences/);
  assert.equal((await put('key-0', { value: 'changed' }, bob.token)).statusCode, 204, 'an existing key can still change');

  const anonymous = await t.app.inject({ method: 'GET', url: '/v0/account/preferences' });
  assert.equal(anonymous.statusCode, 401);
});
