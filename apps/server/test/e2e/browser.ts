import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { ServerProcess } from '../processes.ts';

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

/** Records console errors and uncaught page errors from now on. */
export function watchBrowserProblems(page: Page): BrowserProblem[] {
  const problems: BrowserProblem[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push({ kind: 'console', text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => problems.push({ kind: 'page', text: error.stack ?? error.message, url: '' }));
  return problems;
}
