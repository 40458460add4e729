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
  // What is started is stopped again, in reverse, when a later part fails (Chromium missing, say):
  // a server left running would keep the test file from ever ending.
  const undo: Array<() => unknown> = [];
  const close = async () => {
    for (const step of undo.splice(0).reverse()) await step();
  };
  try {
    const dir = mkdtempSync(join(tmpdir(), `docagent-e2e-${name}-`));
    undo.push(() => rmSync(dir, { recursive: true, force: true }));
    const fake = await startFakeLlm();
    undo.push(() => fake.close());
    const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
    undo.push(() => target.drop());
    const env = envFor(target.target);
    // Keys and endpoints of the machine running the tests must not add real providers.
    for (const key of Object.keys(env)) {
      if (/_(API_KEY|BASE_URL|MODELS)$/.test(key)) delete env[key];
    }
    const server = await startServer({ ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' });
    undo.push(() => server.stop());
    const browser = await launchBrowser();
    undo.push(() => browser.close());
    return { fake, server, browser, dir, close };
  } catch (error) {
    await close();
    throw error;
  }
}
