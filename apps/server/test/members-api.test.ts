import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiToken, createUser, setMembership } from '@docagent/core';
import { bearer, json, PASSWORD, seedMember, signIn, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof seedMember>>;
let stranger: Awaited<ReturnType<typeof seedMember>>;

interface MemberBody {
  user_id: string;
  email: string;
  name: string;
  role: 'admin' | 'user';
  must_change_password: boolean;
  joined_at: string;
}
interface AddedBody {
  member: MemberBody;
  created_user: boolean;
  one_time_password: string | null;
}

const members = (org = admin.org.id) => `/v0/orgs/${org}/members`;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, token = admin.token) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function list(token = admin.token): Promise<MemberBody[]> {
  const res = await call('GET', members(), undefined, token);
  assert.equal(res.statusCode, 200, res.body);
  return json<{ members: MemberBody[] }>(res).members;
}

async function add(body: Record<string, unknown>): Promise<AddedBody> {
  const res = await call('POST', members(), body);
  assert.equal(res.statusCode, 201, res.body);
  return json<AddedBody>(res);
}

before(async () => {
  t = await startTestApp();
  admin = await seedMember(t.database, 'boss');
  stranger = await seedMember(t.database, 'stranger');
});
after(() => t.close());

test('an admin lists the members, adds an existing account, and the new member sees the organization', async () => {
  assert.deepEqual(
    (await list()).map((m) => [m.email, m.role]),
    [['boss@example.test', 'admin']],
  );
  const existing = await createUser(t.database.db, { email: 'Existing@Example.test', password: PASSWORD, name: 'Ex' });
  const added = await add({ email: '  EXISTING@example.test ', role: 'user' });
  assert.equal(added.created_user, false);
  assert.equal(added.one_time_password, null, 'an existing account keeps its password');
  assert.deepEqual(
    { id: added.member.user_id, email: added.member.email, role: added.member.role, must: added.member.must_change_password },
    { id: existing.id, email: 'existing@example.test', role: 'user', must: false },
  );

  const session = await signIn(t.app, 'existing@example.test');
  const me = json<{ organizations: Array<{ id: string; role: string }> }>(
    await t.app.inject({ method: 'GET', url: '/v0/account/me', headers: { cookie: session.cookie } }),
  );
  assert.deepEqual(me.organizations, [{ id: admin.org.id, name: 'boss org', role: 'user' }]);

  const again = await call('POST', members(), { email: 'existing@example.test', role: 'admin' });
  assert.equal(again.statusCode, 409);
  assert.match(json<{ detail: string }>(again).detail, /already a member of this organization/);
});

test('a new email gets an account with a one-time password, shown once, that must be replaced at the first sign-in', async () => {
  const added = await add({ email: 'newcomer@example.test', name: 'New Comer' });
  assert.equal(added.created_user, true);
  assert.equal(added.member.role, 'user', 'the role defaults to user');
  assert.equal(added.member.name, 'New Comer');
  assert.equal(added.member.must_change_password, true);
  const password = added.one_time_password;
  assert.ok(password && password.length >= 12, 'a one-time password is returned');
  assert.ok(!(await call('GET', members())).body.includes(password), 'it is never shown again');

  const session = await signIn(t.app, 'newcomer@example.test', password);
  const headers = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  const me = json<{ user: { must_change_password: boolean } }>(
    await t.app.inject({ method: 'GET', url: '/v0/account/me', headers }),
  );
  assert.equal(me.user.must_change_password, true);
  const changed = await t.app.inject({
    method: 'POST',
    url: '/v0/account/password',
    headers,
    payload: { current_password: password, new_password: 'a passphrase of my own' },
  });
  assert.equal(changed.statusCode, 204, changed.body);
  const listed = (await list()).find((m) => m.email === 'newcomer@example.test');
  assert.equal(listed?.must_change_password, false, 'the list shows the password was replaced');
});

test('bad input is refused with a sentence, not a 500', async () => {
  for (const [body, pattern] of [
    [{ email: 'not an email' }, /is not an email address/],
    [{ email: '' }, /email/],
    [{ email: 'a@b.test', role: 'owner' }, /role/],
    [{ email: 'a@b.test', extra: true }, /extra/],
  ] as const) {
    const res = await call('POST', members(), body);
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    assert.match(json<{ detail: string }>(res).detail, pattern);
  }
  const badRole = await call('PATCH', `${members()}/${admin.user.id}`, { role: 'owner' });
  assert.equal(badRole.statusCode, 400);
});

test('roles change, and the last admin can be neither demoted nor removed', async () => {
  const alone = await call('PATCH', `${members()}/${admin.user.id}`, { role: 'user' });
  assert.equal(alone.statusCode, 409);
  assert.match(
    json<{ detail: string }>(alone).detail,
    /boss@example\.test is the only admin of this organization and cannot be made a user\. Make another member an admin first\./,
  );
  const removeAlone = await call('DELETE', `${members()}/${admin.user.id}`);
  assert.equal(removeAlone.statusCode, 409);
  assert.match(json<{ detail: string }>(removeAlone).detail, /only admin .* cannot be removed/);

  const { member } = await add({ email: 'deputy@example.test', role: 'user' });
  const promoted = await call('PATCH', `${members()}/${member.user_id}`, { role: 'admin' });
  assert.equal(promoted.statusCode, 200, promoted.body);
  assert.equal(json<MemberBody>(promoted).role, 'admin');
  const same = await call('PATCH', `${members()}/${member.user_id}`, { role: 'admin' });
  assert.equal(same.statusCode, 200, 'setting the role it has is no change and no error');

  // With two admins, either may step down; then the other is the last one again.
  const demoted = await call('PATCH', `${members()}/${admin.user.id}`, { role: 'user' });
  assert.equal(demoted.statusCode, 200, demoted.body);
  const forbidden = await call('GET', members());
  assert.equal(forbidden.statusCode, 403, 'a user may not read the members');
  assert.match(json<{ detail: string }>(forbidden).detail, /Only an organization's admins/);
  await setMembership(t.database.db, { orgId: admin.org.id, userId: admin.user.id, role: 'admin' });
});

test('a non-admin can neither list, add, change nor remove members', async () => {
  const { member } = await add({ email: 'plain@example.test', role: 'user' });
  const token = (await createApiToken(t.database.db, { orgId: admin.org.id, name: 'plain', createdBy: member.user_id })).token;
  const attempts = [
    await call('GET', members(), undefined, token),
    await call('POST', members(), { email: 'sneaky@example.test', role: 'admin' }, token),
    await call('PATCH', `${members()}/${member.user_id}`, { role: 'admin' }, token),
    await call('DELETE', `${members()}/${admin.user.id}`, undefined, token),
  ];
  assert.deepEqual(
    attempts.map((res) => res.statusCode),
    [403, 403, 403, 403],
  );
  assert.ok(!(await list()).some((m) => m.email === 'sneaky@example.test'));
});

test("removing a member ends their access (their tokens too) but keeps their account; other organizations' people are not found", async () => {
  const { member } = await add({ email: 'leaver@example.test', role: 'admin' });
  const token = (await createApiToken(t.database.db, { orgId: admin.org.id, name: 'leaver', createdBy: member.user_id })).token;
  assert.equal((await call('GET', members(), undefined, token)).statusCode, 200);

  const removed = await call('DELETE', `${members()}/${member.user_id}`);
  assert.equal(removed.statusCode, 204, removed.body);
  assert.ok(!(await list()).some((m) => m.user_id === member.user_id));
  assert.equal((await call('GET', members(), undefined, token)).statusCode, 404, 'their token no longer reaches the org');
  assert.equal((await call('DELETE', `${members()}/${member.user_id}`)).statusCode, 404, 'removing twice: not found');

  // Their account stays: they can be added back without a new password.
  const back = await add({ email: 'leaver@example.test' });
  assert.equal(back.created_user, false);

  assert.equal((await call('PATCH', `${members()}/${stranger.user.id}`, { role: 'user' })).statusCode, 404);
  assert.equal((await call('DELETE', `${members()}/${stranger.user.id}`)).statusCode, 404);
  assert.equal((await call('GET', members(stranger.org.id))).statusCode, 404, "another org's members are hidden");
  assert.equal((await call('GET', members(), undefined, stranger.token)).statusCode, 404);
  const strangers = json<{ members: MemberBody[] }>(await call('GET', members(stranger.org.id), undefined, stranger.token));
  assert.deepEqual(
    strangers.members.map((m) => m.email),
    ['stranger@example.test'],
  );
});
