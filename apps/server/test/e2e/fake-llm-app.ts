import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabaseTarget } from '@docagent/core/testing';
import { type FakeLlmServer, type FakeReply, startFakeLlm } from '@docagent/fake-llm';
import type { Browser } from 'playwright-core';
import { envFor, type ServerProcess, startServer } from '../processes.ts';
import { launchBrowser } from './browser.ts';

/** A server whose only model provider is the fake OpenAI server, on a fresh test database, and a browser. */
export interface FakeLlmApp {
  fake: FakeLlmServer;
  server: ServerProcess;
  browser: Browser;
  /** A scratch directory of the test's own, removed by close(). */
  dir: string;
  close(): Promise<void>;
}

export async function startFakeLlmApp(name: string): Promise<FakeLlmApp> {
  const dir = mkdtempSync(join(tmpdir(), `docagent-e2e-${name}-`));
  const fake = await startFakeLlm();
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  const env = envFor(target.target);
  // Keys and endpoints of the machine running the tests must not add real providers.
  for (const key of Object.keys(env)) {
    if (/_(API_KEY|BASE_URL|MODELS)$/.test(key)) delete env[key];
  }
  const server = await startServer({ ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' });
  const browser = await launchBrowser();
  return {
    fake,
    server,
    browser,
    dir,
    async close() {
      await browser.close();
      await server.stop();
      await fake.close();
      await target.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A reply the fake provider holds until the test lets it go, to stop a turn while its model call is under way. */
export interface HeldReply {
  /** Resolves once the provider has the request (and holds it). */
  arrived: Promise<void>;
  release(): void;
  /** For the fake's handler: holds, then answers with the reply. */
  answer(): Promise<FakeReply>;
}

export function heldReply(reply: FakeReply): HeldReply {
  let arrive: () => void = () => {};
  let release: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    arrived,
    release: () => release(),
    async answer() {
      arrive();
      await released;
      return reply;
    },
  };
}
