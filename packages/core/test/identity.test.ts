import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  authenticateBearer,
  bootstrapIfEmpty,
  countUsers,
  createApiToken,
  createOrganization,
  createUser,
  type Database,
  DomainError,
  login,
  requireOrgAccess,
  setMembership,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

test('first-start bootstrap runs on an empty database only', async () => {
  const creds = await bootstrapIfEmpty(database.db);
  assert.ok(creds);
  assert.match(creds.apiToken, /^da_/);
  assert.equal(await bootstrapIfEmpty(database.db), undefined);
  assert.equal(await countUsers(database.db), 1);
  const { session, account } = await login(database.db, { email: creds.email, password: creds.password, ip: '10.0.0.1' });
  assert.ok(session.token.startsWith('ds_'));
  assert.equal(account.organizations[0]?.id, creds.orgId);
});

test('failures from one address are limited across accounts', async () => {
  const limits = { windowSeconds: 600, failuresPerAccount: 100, failuresPerIp: 3 };
  await createUser(database.db, { email: 'ip@example.test', password: 'a long password!' });
  for (let i = 0; i < 3; i++) {
    await assert.rejects(
      login(database.db, { email: `user${i}@example.test`, password: 'wrong', ip: '192.0.2.7' }, limits),
      /The email or the password is wrong/,
    );
  }
  await assert.rejects(
    login(database.db, { email: 'ip@example.test', password: 'a long password!', ip: '192.0.2.7' }, limits),
    (error: unknown) => error instanceof DomainError && error.kind === 'rate_limited' && (error.retryAfterSeconds ?? 0) > 0,
  );
  await login(database.db, { email: 'ip@example.test', password: 'a long password!', ip: '192.0.2.8' }, limits);
});

test('a user token loses access to the org when its user leaves it', async () => {
  const user = await createUser(database.db, { email: 'leaver@example.test', password: 'a long password!' });
  const org = await createOrganization(database.db, { name: 'Temp' });
  await setMembership(database.db, { orgId: org.id, userId: user.id, role: 'user' });
  const token = await createApiToken(database.db, { orgId: org.id, name: 't', createdBy: user.id });
  const principal = await authenticateBearer(database.db, token.token);
  assert.equal((await requireOrgAccess(database.db, principal, org.id)).role, 'user');
  const { tables } = await import('../src/index.ts');
  const { eq } = await import('drizzle-orm');
  await database.db.delete(tables.memberships).where(eq(tables.memberships.userId, user.id));
  // Every request authenticates again: the token's next request reads the membership with it.
  const next = await authenticateBearer(database.db, token.token);
  await assert.rejects(requireOrgAccess(database.db, next, org.id), /was not found/);
});
