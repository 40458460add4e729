import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Page } from 'playwright-core';
import { WebhookReceiver } from '../webhook-receiver.ts';
import { ARTIFACTS, runScenario, signInFirstTime, within } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';

let app: FakeLlmApp;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await WebhookReceiver.start();
  // The receiver is on 127.0.0.1; the server (a child process) inherits this.
  process.env.DOCAGENT_WEBHOOK_ALLOW_PRIVATE = 'true';
  // On PostgreSQL the server keeps no secret of its own; endpoint secrets need one.
  process.env.DOCAGENT_SECRET = 'the webhooks browser test secret';
  app = await startFakeLlmApp('webhooks');
  app.fake.setHandler(() => ({ text: '{"summary":"x"}' }));
});
after(async () => {
  await app?.close();
  await receiver?.close();
});

const shot = (page: Page, name: string, size: string) =>
  page.screenshot({ path: join(ARTIFACTS, `webhooks-${name}-${size}-${testDatabaseKind()}.png`), fullPage: true });

test(`Settings → Webhooks: add an endpoint, see its secret once, send a test, see it in the log, send it again (${testDatabaseKind()})`, {
  timeout: 5 * 60_000,
}, async () => {
  await runScenario(app.browser, 'webhooks', { width: 1440, height: 900 }, async (page) => {
    await signInFirstTime(page, app.server);
    const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1] ?? '';
    const origin = new URL(page.url()).origin;
    await page.goto(`${origin}/orgs/${orgId}/settings/models`);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 2, name: 'Webhooks', exact: true }).waitFor();
    await page.getByText('No webhook endpoints yet').waitFor();
    await shot(page, 'empty', '1440x900');

    const form = page.getByRole('form', { name: 'New webhook endpoint' });
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await form.getByText('Enter the full address').waitFor();
    await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url('/e2e'));
    await form.getByRole('textbox', { name: 'Description (optional)' }).fill('Accounting system');
    await form.getByRole('checkbox', { name: /document\.text_ready/ }).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();

    const secret = (await page.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    assert.match(secret, /^whsec_/);
    const card = page.getByRole('article', { name: `Webhook ${receiver.url('/e2e')}` });
    await card.getByText('Enabled').waitFor();
    await shot(page, 'secret', '1440x900');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook-secret').waitFor({ state: 'detached' });

    await card.getByRole('button', { name: 'Send test' }).click();
    const row = card.getByTestId('webhook-delivery').filter({ hasText: 'ping' });
    await within(row.getByText('Delivered').waitFor(), 60_000, 'the test is delivered');
    const [request] = receiver.to('/e2e');
    assert.ok(request, 'the receiver got the test');
    const timestamp = request.headers['docagent-webhook-timestamp'];
    const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
    assert.equal(request.headers['docagent-webhook-signature'], expected, 'signed with the secret shown once');
    assert.equal(JSON.parse(request.body).type, 'ping');
    await shot(page, 'log', '1440x900');

    await row.getByRole('button', { name: 'Send again' }).click();
    await within(
      (async () => {
        while (receiver.to('/e2e').length < 2) await new Promise((r) => setTimeout(r, 100));
      })(),
      60_000,
      'the delivery is sent again',
    );
    await row.getByRole('cell', { name: '2', exact: true }).waitFor();

    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByText('Disabled').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Send test' }).isDisabled(), true);
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, 'log', '1280x720');
    // The dark theme follows the system's choice when the person made none.
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'log-dark', '1280x720');
    await page.emulateMedia({ colorScheme: 'light' });

    // The secret is not shown again: reloading shows the endpoint without it.
    await page.reload();
    await card.waitFor();
    assert.equal(await page.getByTestId('webhook-secret').count(), 0);

    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No webhook endpoints yet').waitFor();
  });
});
