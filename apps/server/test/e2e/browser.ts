import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { testDatabaseKind } from '@docagent/core/testing';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import type { ServerProcess } from '../processes.ts';
import { recordPageTraffic } from './page-traffic.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The password the browser tests give the first-start admin in place of the one-time one. */
export const NEW_PASSWORD = 'a brand new passphrase';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The login link and one-time password that `docagent serve` prints on its first start. */
export function firstStartCredentials(server: ServerProcess): { loginUrl: string; password: string } {
  const out = server.output();
  const loginUrl = /Sign in:\s+(\S+)/.exec(out)?.[1];
  const password = /Password:\s+(\S+)/.exec(out)?.[1];
  assert.ok(loginUrl && password, `the banner has a login URL and a password:\n${out}`);
  return { loginUrl, password };
}

/** Answers the forced password change that follows the first sign-in, and lands on the documents page. */
export async function replaceOneTimePassword(page: Page, oneTimePassword: string): Promise<void> {
  await page.getByLabel('Current password').fill(oneTimePassword);
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Save password' }).click();
  await page.getByRole('heading', { name: 'Documents' }).waitFor();
}

/** Signs in with the first-start credentials and replaces the one-time password. */
export async function signInFirstTime(page: Page, server: ServerProcess): Promise<void> {
  const { loginUrl, password } = firstStartCredentials(server);
  await page.goto(loginUrl);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await replaceOneTimePassword(page, password);
}

export interface BrowserProblem {
  kind: 'console' | 'page';
  text: string;
  /** The resource or script the message is about, when the browser says. */
  url: string;
}

/**
 * Chromium logs some Content-Security-Policy violations to the console but not all (a refused
 * WebAssembly compile, say), and none in workers, where pdf.js then quietly falls back: this makes
 * each one a console error.
 */
const REPORT_CSP_VIOLATIONS = `self.addEventListener('securitypolicyviolation', (event) => console.error(
  'Content-Security-Policy violation: ' + event.effectiveDirective + ' refused ' + (event.blockedURI || 'inline code') +
  ' in ' + event.sourceFile + ':' + event.lineNumber));`;

/** What went wrong in a page: console errors, Content-Security-Policy violations among them, and uncaught errors. */
export interface BrowserProblems {
  /** Failures the test causes on purpose (a request it expects to be refused): they do not count. */
  allow(matches: (problem: BrowserProblem) => boolean): void;
  /** Fails on any problem so far that is not allowed. */
  assertNone(): void;
  /** The problems so far that are not allowed. */
  unexpected(): BrowserProblem[];
}

/** Records the page's problems from now on, its workers' included. */
export async function watchBrowserProblems(page: Page): Promise<BrowserProblems> {
  const seen: BrowserProblem[] = [];
  const allowed: Array<(problem: BrowserProblem) => boolean> = [];
  await page.addInitScript(REPORT_CSP_VIOLATIONS);
  // A worker's console messages come to the page's. One that ends before it is watched has nothing left to report.
  page.on('worker', (worker) => void worker.evaluate(REPORT_CSP_VIOLATIONS).catch(() => undefined));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push({ kind: 'console', text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => seen.push({ kind: 'page', text: error.stack ?? error.message, url: '' }));
  const unexpected = () => seen.filter((problem) => !allowed.some((matches) => matches(problem)));
  return {
    allow: (matches) => allowed.push(matches),
    assertNone() {
      assert.deepEqual(unexpected(), [], 'no console errors, page errors or Content-Security-Policy violations');
    },
    unexpected,
  };
}

/** Opens the signed-in person's menu in the page header (theme, shortcuts, sign out). */
export async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByRole('banner').locator('summary').filter({ hasText: '@' }).click();
  const menu = page.getByRole('dialog', { name: 'Account' });
  await menu.waitFor();
  return menu;
}

export const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

/** Calls the API with the browser's session (its cookie, and the CSRF token for writes), as the web app does. */
export async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const origin = new URL(page.url()).origin;
  const headers: Record<string, string> = {};
  if (method !== 'GET') {
    const me = await page.request.get(`${origin}/v0/account/me`);
    headers['x-csrf-token'] = ((await me.json()) as { csrf_token: string }).csrf_token;
  }
  const response = await page.request.fetch(`${origin}${path}`, { method, headers, data: body });
  assert.ok(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Reads a value through the API until it equals the expected one: the page may show a change
 * (an optimistic update) a moment before the server has stored it.
 */
export async function untilStored<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (isDeepStrictEqual(value, expected)) return;
    assert.ok(Date.now() < deadline, `${what}: still ${JSON.stringify(value)}, not ${JSON.stringify(expected)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A promise the test waits for, failing with what it waited for instead of hanging until the test's own limit. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Waited ${ms / 1000} s for ${what}.`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Text extraction and the prompts that follow it, on a slow CI machine. */
export const EXTRACTION_TIMEOUT_MS = 3 * 60_000;

/** Waits until the document (its API path) has its text and its prompts have run. */
export async function waitForPrompts(page: Page, documentPath: string): Promise<void> {
  const deadline = Date.now() + EXTRACTION_TIMEOUT_MS;
  for (;;) {
    const { state } = await api<{ state: string }>(page, 'GET', `${documentPath}?include_content=false`);
    if (state === 'llm_completed') return;
    assert.ok(!state.endsWith('_failed'), `the document's processing failed: ${state}`);
    assert.ok(Date.now() < deadline, `the document is still ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Layout is measured once the app's typeface has loaded: until then the system's fallback font
 * lays the page out (on Linux DejaVu Sans, about a tenth wider).
 */
export async function fontsLoaded(page: Page): Promise<void> {
  await page.evaluate('document.fonts.ready.then(() => undefined)');
}

/** The page does not scroll: its panels do. */
export async function assertFitsWindow(page: Page, what: string): Promise<void> {
  await fontsLoaded(page);
  const overflow = Number(await page.evaluate('document.documentElement.scrollHeight - window.innerHeight'));
  assert.ok(overflow <= 0, `${what} fits the window (it overflows by ${overflow} px)`);
}

/** Where the browser tests leave their screenshots. */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

/**
 * Runs a scenario on a new page of that size, and fails it on any browser problem it did not
 * allow; when it fails, a full-page screenshot `<name>-failure-<database>.png` is left in ARTIFACTS
 * and the error names the browser problems seen until then, the requests still waiting and the
 * last WebSocket messages.
 */
export async function runScenario(
  browser: Browser,
  name: string,
  viewport: { width: number; height: number },
  scenario: (page: Page, problems: BrowserProblems) => Promise<void>,
): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(30_000);
  const problems = await watchBrowserProblems(page);
  const traffic = recordPageTraffic(page);
  try {
    await scenario(page, problems);
    problems.assertNone();
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, `${name}-failure-${testDatabaseKind()}.png`), fullPage: true });
    if (!(error instanceof Error)) throw error;
    // A step that timed out waiting for the page often has its cause here (a failed request, a request or frame that never came).
    const before = problems.unexpected();
    const context = [
      ...(error instanceof assert.AssertionError || before.length === 0
        ? []
        : [`Browser problems before it failed: ${JSON.stringify(before, null, 2)}`]),
      traffic.describe(),
    ].join('\n');
    error.message += `\n${context}`;
    // The test runner prints the stack, which was written with the message as it was when thrown.
    if (error.stack !== undefined) error.stack += `\n${context}`;
    throw error;
  }
}
