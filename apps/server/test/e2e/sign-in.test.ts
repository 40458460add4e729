import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { type Browser, chromium } from 'playwright-core';
import { envFor, type ServerProcess, startServer } from '../processes.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let server: ServerProcess;
let browser: Browser;
let drop: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'docagent-e2e-'));

before(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  drop = target.drop;
  server = await startServer(envFor(target.target));
  browser = await chromium.launch({
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
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

test(`the printed first-start credentials sign in, and the web app creates a working API token (${testDatabaseKind()})`, async () => {
  const out = server.output();
  const loginUrl = /Sign in:\s+(\S+)/.exec(out)?.[1];
  const password = /Password:\s+(\S+)/.exec(out)?.[1];
  assert.ok(loginUrl && password, `the banner has a login URL and a password:\n${out}`);

  const page = await browser.newPage();
  await page.goto(loginUrl);
  assert.equal(await page.getByLabel('Email').inputValue(), 'admin@docagent.local', 'the link fills in the email');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Invalid credentials').waitFor();

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  // The one-time password has to be replaced before anything else.
  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Save password' }).click();
  await page.getByRole('heading', { name: 'Documents' }).waitFor();
  await page.getByText('No documents yet').waitFor();

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
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

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.reload();
  assert.ok(new URL(page.url()).pathname.startsWith('/login'), 'signed out stays signed out after a reload');
});
