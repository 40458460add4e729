import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { api, runScenario, signInFirstTime } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { screenshotBothThemes } from './workspace-checks.ts';

/**
 * Batches (issue 19): the prompt page runs the prompt over documents chosen by name, shows the
 * progress and the document that failed with its reason, and retries only that one.
 */

const PROMPT = 'Extract the total of the invoice.';
let failing = true;

/** Answers everything; the batch's prompt on the document saying FAIL fails while `failing`. */
function reply(request: RecordedRequest) {
  const body = JSON.stringify(request.body);
  if (failing && body.includes(PROMPT) && body.includes('FAIL'))
    return { kind: 'error' as const, status: 500, message: 'the provider broke' };
  return { text: JSON.stringify(body.includes(PROMPT) ? { total: 42 } : { summary: 'An invoice.' }) };
}

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('batches');
  app.fake.setHandler(reply);
});
after(() => app?.close());

test(`Batches: run a prompt over documents by name, see one fail, retry it (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'batches', { width: 1280, height: 720 }, walkThrough);
});

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1];
  assert.ok(orgId, `an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const documents = [
    ['invoice-north.txt', 'Invoice North, total 42'],
    ['invoice-south.txt', 'Invoice South FAIL'],
    ['invoice-east.txt', 'Invoice East, total 42'],
  ].map(([name, text]) => ({ name, content: Buffer.from(text as string).toString('base64') }));
  const uploaded = await api<{ documents: Array<{ document_id: string }> }>(page, 'POST', `${org}/documents`, { documents });
  for (const { document_id } of uploaded.documents) {
    for (;;) {
      const doc = await api<{ state: string }>(page, 'GET', `${org}/documents/${document_id}?include_content=false`);
      if (['llm_completed', 'llm_failed'].includes(doc.state)) break;
      await page.waitForTimeout(200);
    }
  }
  const prompt = await api<{ prompt_id: string }>(page, 'POST', `${org}/prompts`, { name: 'Totals', content: PROMPT });
  await page.goto(new URL(`/orgs/${orgId}/prompts/${prompt.prompt_id}`, page.url()).toString());

  const panel = page.getByRole('region', { name: 'Run on documents' });
  await panel.getByRole('radio', { name: 'by name' }).check();
  await panel.getByRole('searchbox', { name: 'Document name contains' }).fill('invoice-');
  await panel.getByRole('button', { name: 'Run the latest version' }).click();
  const batches = panel.getByRole('list', { name: 'Batches' });
  await batches.getByText('3 of 3 done · 2 succeeded · 1 failed').waitFor({ timeout: 60_000 });
  await batches
    .getByRole('list', { name: 'Failed documents' })
    .getByText(/invoice-south\.txt: .*the provider broke/)
    .waitFor();
  await screenshotBothThemes(page, 'batches-failed-1280x720');
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshotBothThemes(page, 'batches-failed-1440x900');

  failing = false;
  await batches.getByRole('button', { name: 'Retry the failed' }).click();
  await batches.getByText('3 of 3 done · 3 succeeded · 0 failed').waitFor({ timeout: 60_000 });
  await batches.getByRole('list', { name: 'Failed documents' }).waitFor({ state: 'detached' });
}
