import {
  createApiToken,
  createOrganization,
  createUser,
  type Database,
  EventBus,
  type JobQueue,
  setMembership,
} from '@docagent/core';
import { openTestDatabase } from '@docagent/core/testing';
import type { LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { ZodApp } from '../src/http/types.ts';
import { startJobQueue } from '../src/jobs.ts';
import { createModelRegistry } from '../src/llm.ts';

export interface TestApp {
  app: ZodApp;
  database: Database;
  queue: JobQueue;
  /** The process's event bus: what the app and its jobs publish. */
  events: EventBus;
  close(): Promise<void>;
}

/**
 * The real app and job queue on a fresh database of this test file, driven with
 * `app.inject`. Jobs are only enqueued unless DOCAGENT_WORKERS in `env` says otherwise.
 * `dataExecutors` replaces the SQL and Python executors (fakes, or real ones with test settings).
 */
export async function startTestApp(
  env: NodeJS.ProcessEnv = {},
  options: Pick<AppOptions, 'dataExecutors'> = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({ DOCAGENT_WORKERS: '0', ...env });
  const llm = createModelRegistry(database, config);
  const events = new EventBus();
  const queue = await startJobQueue(database, config, config.workers, llm, undefined, events);
  const app = await buildApp({ config, db: database.db, scheduler: queue, llm, logger: false, events, ...options });
  await app.ready();
  return {
    app,
    database,
    queue,
    events,
    close: async () => {
      await app.close();
      await queue.stop();
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

export interface FormPart {
  name: string;
  /** A file part when set; a plain field otherwise. */
  filename?: string;
  value: string | Uint8Array;
  contentType?: string;
}

/** A multipart/form-data body as a browser or curl would send it, for `app.inject`. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----docagent-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.filename === undefined ? '' : `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export type Member = Awaited<ReturnType<typeof seedMember>>;

/** Uploads one text document as the member (JSON upload); its id. */
export async function uploadText(server: TestApp, who: Member, name: string, text: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: `/v0/orgs/${who.org.id}/documents`,
    headers: bearer(who.token),
    payload: { documents: [{ name, content: Buffer.from(text).toString('base64') }] },
  });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return json<{ documents: Array<{ document_id: string }> }>(res).documents[0]?.document_id as string;
}

/** Waits until the document's text and prompts are done with, whichever way (a job queue works on it). */
export async function settledDocument(server: TestApp, who: Member, id: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const res = await server.app.inject({
      method: 'GET',
      url: `/v0/orgs/${who.org.id}/documents/${id}?include_content=false`,
      headers: bearer(who.token),
    });
    if (['llm_completed', 'llm_failed', 'ocr_failed'].includes(json<{ state: string }>(res).state)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`document ${id} never settled`);
}
