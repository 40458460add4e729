import { createApiToken, createOrganization, createUser, type Database, setMembership } from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { ZodApp } from '../src/http/types.ts';

export interface TestApp {
  app: ZodApp;
  database: Database;
  close(): Promise<void>;
}

/** The real app on a fresh database of this test file, driven with `app.inject`. */
export async function startTestApp(env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const app = await buildApp({ config: loadConfig(env), db: database.db, logger: false });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export const PASSWORD = 'correct horse battery staple';

/** A user who is a member of a new organization, with an API token of their own. */
export async function seedMember(database: Database, label: string, role: 'admin' | 'user' = 'admin') {
  const user = await createUser(database.db, { email: `${label}@example.test`, password: PASSWORD });
  const org = await createOrganization(database.db, { name: `${label} org` });
  await setMembership(database.db, { orgId: org.id, userId: user.id, role });
  const token = await createApiToken(database.db, { orgId: org.id, name: `${label} token`, createdBy: user.id });
  return { user, org, token: token.token, tokenId: token.id };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs in through the API; returns the cookie header and CSRF token a browser would hold. */
export async function signIn(app: ZodApp, email: string, password = PASSWORD) {
  const res = await app.inject({ method: 'POST', url: '/v0/auth/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'docagent_session');
  if (!cookie) throw new Error('login set no session cookie');
  return { cookie: `docagent_session=${cookie.value}`, csrf: (res.json() as { csrf_token: string }).csrf_token, response: res };
}

export const json = <T = Record<string, unknown>>(res: LightMyRequestResponse) => res.json() as T;
