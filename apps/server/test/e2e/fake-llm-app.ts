import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabaseTarget } from '@docagent/core/testing';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
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
