import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { authenticateApiToken, describeAccount, findUser, openDatabase } from '@docagent/core';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { envFor, runCli, startServer } from './processes.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'docagent-cli-'));
  dirs.push(dir);
  return join(dir, 'data');
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const parse = (stdout: string) => JSON.parse(stdout.trim()) as Record<string, string>;

describe(`admin commands on ${testDatabaseKind()}`, () => {
  let env: NodeJS.ProcessEnv;
  let target: Awaited<ReturnType<typeof createTestDatabaseTarget>>;
  before(async () => {
    target = await createTestDatabaseTarget({ dataDir: tempDir() });
    env = envFor(target.target);
  });
  after(() => target.drop());

  test('create-user, create-org, add-member, create-token, revoke-token with --json', async () => {
    const created = await runCli(['admin', 'create-user', '--email', 'Ops@Example.test', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const user = parse(created.stdout);
    assert.equal(user.email, 'ops@example.test');
    assert.ok((user.password ?? '').length >= 12, 'a generated password is printed once');

    const org = parse(
      (await runCli(['admin', 'create-org', '--name', 'Acme', '--admin', 'ops@example.test', '--json'], env)).stdout,
    );
    assert.equal(org.admin_user_id, user.user_id);

    await runCli(
      ['admin', 'create-user', '--email', 'analyst@example.test', '--password', 'long enough password', '--json'],
      env,
    );
    const member = await runCli(
      ['admin', 'add-member', '--org', org.organization_id!, '--user', 'analyst@example.test', '--role', 'user', '--json'],
      env,
    );
    assert.equal(member.code, 0, member.stderr);
    assert.equal(parse(member.stdout).role, 'user');

    const token = parse(
      (await runCli(['admin', 'create-token', '--org', org.organization_id!, '--name', 'ci', '--json'], env)).stdout,
    );
    assert.match(token.token ?? '', /^da_/);

    const database = await openDatabase(target.target, 'test');
    try {
      assert.equal((await authenticateApiToken(database.db, token.token!)).orgId, org.organization_id);
      const analyst = await findUser(database.db, 'analyst@example.test');
      assert.deepEqual(
        (await describeAccount(database.db, analyst.id)).organizations.map((o) => o.role),
        ['user'],
      );
      const ops = await describeAccount(database.db, user.user_id!);
      assert.equal(ops.user.mustChangePassword, true, 'a generated password must be changed at first sign-in');
    } finally {
      await database.close();
    }

    const revoked = await runCli(['admin', 'revoke-token', '--token-id', token.token_id!, '--json'], env);
    assert.deepEqual(parse(revoked.stdout), { token_id: token.token_id, revoked: true });
    const again = await openDatabase(target.target, 'test');
    try {
      await assert.rejects(authenticateApiToken(again.db, token.token!), /Invalid credentials/);
    } finally {
      await again.close();
    }
  });

  test('mistakes exit non-zero with a message saying what to fix', async () => {
    const duplicate = await runCli(['admin', 'create-user', '--email', 'ops@example.test', '--json'], env);
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already exists/);
    assert.match(parse(duplicate.stdout).error ?? '', /already exists/);
    const missing = await runCli(['admin', 'create-org', '--json'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Missing --name/);
    const unknown = await runCli(['admin', 'make-coffee'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown admin command/);
    const noOrg = await runCli(['admin', 'create-token', '--org', 'ffffffffffffffffffffffff', '--name', 'x'], env);
    assert.equal(noOrg.code, 1);
    assert.match(noOrg.stderr, /Organization ffffffffffffffffffffffff was not found/);
  });
});

// Each test starts its own servers on its own database, mostly waiting on them: they overlap.
describe(`serve on ${testDatabaseKind()}`, { concurrency: true }, () => {
  test('first start creates an admin, prints working credentials once, and SIGTERM exits cleanly', async () => {
    const target = await createTestDatabaseTarget({ dataDir: tempDir() });
    const env = envFor(target.target);
    try {
      const server = await startServer(env);
      const out = server.output();
      const password = /Password:\s+(\S+)/.exec(out)?.[1];
      const token = /API token:\s+(da_\S+)/.exec(out)?.[1];
      assert.ok(password && token, `credentials are printed:\n${out}`);

      const health = await fetch(`${server.url}/health`);
      assert.deepEqual(await health.json(), { status: 'ok', database: 'ok' });
      const login = await fetch(`${server.url}/v0/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@docagent.local', password }),
      });
      assert.equal(login.status, 200);
      const account = (await login.json()) as { user: { must_change_password: boolean }; organizations: { id: string }[] };
      assert.equal(account.user.must_change_password, true);
      const lookup = await fetch(`${server.url}/v0/account/token/organization?token=${token}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.deepEqual(await lookup.json(), { organization_id: account.organizations[0]?.id });

      const logs = server.output();
      assert.ok(!logs.slice(logs.indexOf('====\n', logs.indexOf('API token:'))).includes(token), 'the token is not logged again');
      assert.ok(!/"url":"[^"]*da_/.test(logs), 'request logs mask the token in the query string');
      assert.equal(await server.stop(), 0);

      const second = await startServer(env);
      assert.ok(!second.output().includes('first start'), 'credentials are printed only on the first start');
      assert.equal(await second.stop(), 0);
    } finally {
      await target.drop();
    }
  });

  test('an admin command works on the embedded database while a server holds it, through that server', {
    skip: testDatabaseKind() !== 'pglite',
  }, async () => {
    const target = await createTestDatabaseTarget({ dataDir: tempDir() });
    const env = envFor(target.target);
    const server = await startServer(env);
    try {
      const org = await runCli(['admin', 'create-org', '--name', 'X', '--json'], env);
      assert.equal(org.code, 0, org.stderr);
      const organizationId = parse(org.stdout).organization_id!;
      const token = await runCli(['admin', 'create-token', '--org', organizationId, '--name', 'ops', '--json'], env);
      assert.equal(token.code, 0, token.stderr);
      // The running server sees at once what the command wrote: one database, served by one thread.
      const apiToken = parse(token.stdout).token!;
      const seen = await fetch(`${server.url}/v0/account/token/organization?token=${apiToken}`, {
        headers: { authorization: `Bearer ${apiToken}` },
      });
      assert.deepEqual(await seen.json(), { organization_id: organizationId });

      // Migrations change the schema under a running server, so they still wait for it to stop.
      const migrate = await runCli(['migrate'], env);
      assert.equal(migrate.code, 3);
      assert.match(migrate.stderr, /in use by a docagent server \(pid \d+/);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    const afterStop = await runCli(['admin', 'create-org', '--name', 'Y', '--json'], env);
    assert.equal(afterStop.code, 0, afterStop.stderr);
  });

  test('two servers starting together on one PostgreSQL database migrate once and create one admin', {
    skip: testDatabaseKind() !== 'postgres',
  }, async () => {
    const target = await createTestDatabaseTarget();
    const env = envFor(target.target);
    try {
      const servers = await Promise.all([startServer(env), startServer(env)]);
      const banners = servers.filter((s) => s.output().includes('first start'));
      assert.equal(banners.length, 1);
      for (const s of servers) assert.equal((await fetch(`${s.url}/health`)).status, 200);
      for (const s of servers) assert.equal(await s.stop(), 0);
    } finally {
      await target.drop();
    }
  });

  test('an unreachable database is a clear error and exit code 3, not a hang', async () => {
    const result = await runCli(['serve'], {
      ...process.env,
      DATABASE_URL: 'postgres://postgres:secret-pw@127.0.0.1:1/nowhere',
      PORT: '0',
    });
    assert.equal(result.code, 3);
    assert.match(result.stderr, /Cannot reach PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nowhere/);
    assert.ok(!result.stderr.includes('secret-pw'), 'the password is not printed');
  });
});
