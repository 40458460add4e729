import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import type { Browser, Page } from 'playwright-core';
import { envFor, type ServerProcess, startServer } from '../processes.ts';
import {
  type BrowserProblems,
  firstStartCredentials,
  launchBrowser,
  openAccountMenu,
  replaceOneTimePassword,
  runScenario,
} from './browser.ts';

let server: ServerProcess;
let browser: Browser;
let drop: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'docagent-e2e-'));

before(async () => {
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  drop = target.drop;
  server = await startServer(envFor(target.target));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

test(`the printed first-start credentials sign in, and the web app creates a working API token (${testDatabaseKind()})`, async () => {
  await runScenario(browser, 'sign-in', { width: 1280, height: 720 }, signInAndCreateToken);
});

async function signInAndCreateToken(page: Page, problems: BrowserProblems): Promise<void> {
  const { loginUrl, password } = firstStartCredentials(server);
  await page.goto(loginUrl);
  assert.equal(await page.getByLabel('Email').inputValue(), 'admin@docagent.local', 'the link fills in the email');
  // The wrong password is the only failed request.
  problems.allow(
    (problem) => problem.kind === 'console' && problem.url.endsWith('/v0/auth/login') && /status of 401/.test(problem.text),
  );
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('The email or the password is wrong. Check both and try again.').waitFor();

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The one-time password has to be replaced before anything else.
  await replaceOneTimePassword(page, password);
  await page.getByText('No documents yet').waitFor();

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'API tokens' }).click();
  await page.getByLabel('Token name').fill('from the browser');
  await page.getByRole('button', { name: 'Create token' }).click();
  const token = ((await page.getByTestId('new-token').textContent()) ?? '').trim().match(/da_[\w-]+/)?.[0];
  assert.ok(token, 'the new token is shown once');

  const lookup = await fetch(`${server.url}/v0/account/token/organization?token=${token}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(lookup.status, 200);
  const orgId = ((await lookup.json()) as { organization_id: string }).organization_id;
  assert.ok(page.url().includes(`/orgs/${orgId}/settings`), 'the token belongs to the org being viewed');

  const row = page.getByRole('row').filter({ hasText: 'from the browser' });
  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByText('Revoked').waitFor();
  const refused = await fetch(`${server.url}/v0/orgs`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(refused.status, 401);

  await (await openAccountMenu(page)).getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.reload();
  assert.ok(new URL(page.url()).pathname.startsWith('/login'), 'signed out stays signed out after a reload');
}
