import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, json, PASSWORD, seedMember, signIn, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof seedMember>>;
let bob: Awaited<ReturnType<typeof seedMember>>;

before(async () => {
  t = await startTestApp();
  alice = await seedMember(t.database, 'alice');
  bob = await seedMember(t.database, 'bob');
});
after(() => t.close());

describe('session login', () => {
  test('login sets an httpOnly cookie and /me answers with the user, orgs and a CSRF token', async () => {
    const { cookie, response } = await signIn(t.app, 'Alice@Example.test');
    const setCookie = String(response.headers['set-cookie']);
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Lax/i);
    const me = await t.app.inject({ method: 'GET', url: '/v0/account/me', headers: { cookie } });
    assert.equal(me.statusCode, 200);
    const body = json<{ user: { email: string }; organizations: { id: string; role: string }[]; csrf_token: string }>(me);
    assert.equal(body.user.email, 'alice@example.test');
    assert.deepEqual(
      body.organizations.map((o) => [o.id, o.role]),
      [[alice.org.id, 'admin']],
    );
    assert.ok(body.csrf_token.length > 20);
  });

  test('logout ends the session', async () => {
    const { cookie, csrf } = await signIn(t.app, 'alice@example.test');
    const out = await t.app.inject({ method: 'POST', url: '/v0/auth/logout', headers: { cookie, 'x-csrf-token': csrf } });
    assert.equal(out.statusCode, 204);
    const me = await t.app.inject({ method: 'GET', url: '/v0/account/me', headers: { cookie } });
    assert.equal(me.statusCode, 401);
  });

  test('a wrong password and an unknown email get the same 401', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      payload: { email: 'bob@example.test', password: 'nope-nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      payload: { email: 'nobody@example.test', password: 'nope-nope-nope' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.deepEqual(json(wrong), json(unknown));
    assert.equal(wrong.cookies.length, 0);
  });

  test('unsafe requests with the cookie need the CSRF header', async () => {
    const { cookie, csrf } = await signIn(t.app, 'alice@example.test');
    const url = `/v0/orgs/${alice.org.id}/tokens`;
    const without = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { name: 'x' } });
    assert.equal(without.statusCode, 403);
    assert.match(json<{ detail: string }>(without).detail, /x-csrf-token/);
    const withHeader = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { name: 'x' },
    });
    assert.equal(withHeader.statusCode, 201);
  });

  test('too many failures lock the account for a while, even with the right password', async () => {
    const { user } = await seedMember(t.database, 'carol');
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v0/auth/login',
        payload: { email: user.email, password: `wrong-${i}-password` },
      });
      assert.equal(res.statusCode, 401);
    }
    const locked = await t.app.inject({
      method: 'POST',
      url: '/v0/auth/login',
      payload: { email: user.email, password: PASSWORD },
    });
    assert.equal(locked.statusCode, 429);
    assert.ok(Number(locked.headers['retry-after']) > 0);
    // Another account from the same address is not affected by this account's lock.
    await signIn(t.app, 'bob@example.test');
  });

  test('changing the password clears must_change_password and the old one stops working', async () => {
    const { user } = await seedMember(t.database, 'dave');
    const { cookie, csrf } = await signIn(t.app, user.email);
    const headers = { cookie, 'x-csrf-token': csrf };
    const short = await t.app.inject({
      method: 'POST',
      url: '/v0/account/password',
      headers,
      payload: { current_password: PASSWORD, new_password: 'short' },
    });
    assert.equal(short.statusCode, 400);
    assert.match(json<{ detail: string }>(short).detail, /new_password/);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/v0/account/password',
      headers,
      payload: { current_password: PASSWORD, new_password: 'a much better passphrase' },
    });
    assert.equal(ok.statusCode, 204);
    const old = await t.app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email: user.email, password: PASSWORD } });
    assert.equal(old.statusCode, 401);
    await signIn(t.app, user.email, 'a much better passphrase');
  });
});

describe('API tokens', () => {
  test('create, use, see last use, revoke, and then be refused', async () => {
    const { cookie, csrf } = await signIn(t.app, 'alice@example.test');
    const created = await t.app.inject({
      method: 'POST',
      url: `/v0/orgs/${alice.org.id}/tokens`,
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { name: 'ci' },
    });
    assert.equal(created.statusCode, 201);
    const { id, token } = json<{ id: string; token: string }>(created);
    assert.match(token, /^da_/);

    const orgs = await t.app.inject({ method: 'GET', url: '/v0/orgs', headers: bearer(token) });
    assert.equal(orgs.statusCode, 200);
    assert.deepEqual(
      json<{ organizations: { id: string }[] }>(orgs).organizations.map((o) => o.id),
      [alice.org.id],
    );

    const lookup = await t.app.inject({
      method: 'GET',
      url: `/v0/account/token/organization?token=${token}`,
      headers: bearer(token),
    });
    assert.deepEqual(json(lookup), { organization_id: alice.org.id });

    const list = await t.app.inject({ method: 'GET', url: `/v0/orgs/${alice.org.id}/tokens`, headers: { cookie } });
    const listed = json<{ tokens: { id: string; last_used_at: string | null; prefix: string }[] }>(list).tokens.find(
      (x) => x.id === id,
    );
    assert.ok(listed?.last_used_at, 'last use is recorded');
    assert.ok(token.startsWith(listed.prefix));
    assert.ok(!list.body.includes(token), 'the secret is never listed');

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v0/orgs/${alice.org.id}/tokens/${id}`,
      headers: { cookie, 'x-csrf-token': csrf },
    });
    assert.equal(revoked.statusCode, 204);
    const refused = await t.app.inject({ method: 'GET', url: '/v0/orgs', headers: bearer(token) });
    assert.equal(refused.statusCode, 401);
    const lookupRefused = await t.app.inject({ method: 'GET', url: `/v0/account/token/organization?token=${token}` });
    assert.equal(lookupRefused.statusCode, 401);
  });

  test('unknown, malformed and missing credentials are all a plain 401', async () => {
    for (const headers of [bearer('da_unknown'), { authorization: 'Basic abc' }, {}]) {
      const res = await t.app.inject({ method: 'GET', url: '/v0/orgs', headers });
      assert.equal(res.statusCode, 401);
    }
  });

  test('a member who is not an admin may revoke only their own tokens', async () => {
    const erin = await seedMember(t.database, 'erin', 'user');
    const frank = await seedMember(t.database, 'frank', 'user');
    // Frank joins Erin's org as a plain user and tries to revoke Erin's token.
    const { setMembership, createApiToken } = await import('@docagent/core');
    await setMembership(t.database.db, { orgId: erin.org.id, userId: frank.user.id, role: 'user' });
    const franks = await createApiToken(t.database.db, { orgId: erin.org.id, name: 'frank in erin', createdBy: frank.user.id });
    const denied = await t.app.inject({
      method: 'DELETE',
      url: `/v0/orgs/${erin.org.id}/tokens/${erin.tokenId}`,
      headers: bearer(franks.token),
    });
    assert.equal(denied.statusCode, 403);
    const own = await t.app.inject({
      method: 'DELETE',
      url: `/v0/orgs/${erin.org.id}/tokens/${franks.id}`,
      headers: bearer(franks.token),
    });
    assert.equal(own.statusCode, 204);
  });
});

describe('organization isolation', () => {
  test('another org answers 404, exactly like an org that does not exist', async () => {
    const { cookie } = await signIn(t.app, 'alice@example.test');
    const cases = [
      { headers: bearer(alice.token), url: `/v0/orgs/${bob.org.id}/tokens` },
      { headers: { cookie }, url: `/v0/orgs/${bob.org.id}/tokens` },
      { headers: bearer(alice.token), url: `/v0/orgs/${bob.org.id}` },
    ];
    const missing = await t.app.inject({
      method: 'GET',
      url: '/v0/orgs/000000000000000000000000/tokens',
      headers: bearer(alice.token),
    });
    assert.equal(missing.statusCode, 404);
    for (const c of cases) {
      const res = await t.app.inject({ method: 'GET', ...c });
      assert.equal(res.statusCode, 404, c.url);
      assert.equal(json<{ code: string }>(res).code, 'not_found');
      assert.ok(!res.body.includes('bob'), 'nothing about the other org leaks');
    }
    const revokeOther = await t.app.inject({
      method: 'DELETE',
      url: `/v0/orgs/${alice.org.id}/tokens/${bob.tokenId}`,
      headers: bearer(alice.token),
    });
    assert.equal(revokeOther.statusCode, 404, 'a token id of another org is not found in this one');
  });
});

describe('bad input', () => {
  const url = '/v0/auth/login';
  test('unknown fields, wrong types and missing fields are 400s naming the field', async () => {
    const extra = await t.app.inject({ method: 'POST', url, payload: { email: 'a@b.c', password: 'x', admin: true } });
    assert.equal(extra.statusCode, 400);
    assert.match(json<{ detail: string }>(extra).detail, /admin/);
    const wrongType = await t.app.inject({ method: 'POST', url, payload: { email: 42, password: 'x' } });
    assert.equal(wrongType.statusCode, 400);
    assert.match(json<{ detail: string }>(wrongType).detail, /email/);
    const missing = await t.app.inject({ method: 'POST', url, payload: { email: 'a@b.c' } });
    assert.equal(missing.statusCode, 400);
    assert.match(json<{ detail: string }>(missing).detail, /password/);
  });

  test('malformed JSON is a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    assert.equal(res.statusCode, 400);
    assert.match(json<{ detail: string }>(res).detail, /JSON/);
  });

  test('a body over the configured limit is a 413', async () => {
    const small = await startTestApp({ MAX_BODY_MB: '0.001' });
    try {
      const res = await small.app.inject({ method: 'POST', url, payload: { email: 'a@b.c', password: 'x'.repeat(2000) } });
      assert.equal(res.statusCode, 413);
      assert.match(json<{ detail: string }>(res).detail, /larger than the limit/);
    } finally {
      await small.close();
    }
  });

  test('every response carries a request id, and a sane one given by the caller is kept', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    assert.equal(res.headers['x-request-id'], 'abc-123');
    const generated = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  test('unknown API paths are JSON 404s', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v0/nope', headers: bearer(alice.token) });
    assert.equal(res.statusCode, 404);
    assert.equal(json<{ code: string }>(res).code, 'not_found');
  });
});

test('an unauthenticated request is refused before its body is looked at', async () => {
  const res = await t.app.inject({ method: 'POST', url: `/v0/orgs/${alice.org.id}/tokens`, payload: { bogus: true } });
  assert.equal(res.statusCode, 401);
});
