import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { testDatabaseKind } from '@docagent/core/testing';
import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, type BrowserProblems, runScenario, signInFirstTime, waitForPrompts } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn } from './responses-requests.ts';

const RENAME = 'Rename the invoice schema to Bill';
const AGAIN = 'Now call it Receipt';
const DONE = 'The schema has its new name.';

let app: FakeLlmApp;
let schemaId = '';

/** Each message is one update_schema call renaming the schema, then a sentence once it ran. */
function reply(request: RecordedRequest): FakeReply {
  if (!request.body?.tools) return { text: '{"summary":"x"}' };
  const asked = lastUserText(request);
  const name = asked.includes(RENAME) ? 'Bill' : asked.includes(AGAIN) ? 'Receipt' : null;
  if (name === null) return { text: 'I do not know that one.' };
  return outputsOfTurn(request).length === 0
    ? { toolCalls: [{ name: 'update_schema', arguments: { schema_id: schemaId, name } }] }
    : { text: DONE };
}

before(async () => {
  app = await startFakeLlmApp('turn-undo');
  app.fake.setHandler(reply);
});

after(async () => {
  await app?.close();
});

test(`the card of a turn's last write undoes it; a refusal is shown in words (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'turn-undo', { width: 1440, height: 900 }, walkThrough);
});

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const origin = new URL(page.url()).origin;
  const responseFormat = strictResponseFormat({ total: { type: 'number' } });
  schemaId = (
    await api<{ schema_id: string }>(page, 'POST', `${org}/schemas`, { name: 'Invoice', response_format: responseFormat })
  ).schema_id;
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'memo.txt', content: Buffer.from('An invoice, total 12.').toString('base64') }],
  });
  const documentId = documents[0]?.document_id ?? '';
  await waitForPrompts(page, `${org}/documents/${documentId}`);

  await page.goto(`${origin}/orgs/${orgId}/documents/${documentId}`);
  const chat = page.getByRole('region', { name: 'Chat' });
  const log = chat.getByRole('log', { name: 'Conversation' });
  const message = chat.getByRole('textbox', { name: 'Message' });
  await chat.getByRole('combobox', { name: 'Model', exact: true }).locator('option', { hasText: 'openai:' }).first().waitFor({
    state: 'attached',
  });

  // The write is approved and runs; once the turn has ended its card offers Undo.
  await message.fill(RENAME);
  await message.press('Enter');
  const card = log.getByRole('region', { name: /update_schema/ }).first();
  await card.getByRole('button', { name: 'Approve update_schema', exact: true }).click();
  await log.getByText(DONE).waitFor();
  const undo = card.getByRole('button', { name: 'Undo update_schema' });
  await undo.waitFor();
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(ARTIFACTS, `turn-undo-offered-${width}x${height}-${testDatabaseKind()}.png`) });
  }

  await undo.click();
  await card.getByText(/Undone: Schema "Invoice" has version 1's definition again, saved as version 3/).waitFor();
  await card.getByText('undone', { exact: true }).waitFor();
  assert.equal(await undo.count(), 0, 'an undone write offers no second undo');
  const { schemas } = await api<{ schemas: Array<{ name: string; schema_version: number }> }>(
    page,
    'GET',
    `${org}/schemas/${schemaId}/versions`,
  );
  assert.deepEqual([schemas[0]?.name, schemas[0]?.schema_version], ['Invoice', 3]);
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: join(ARTIFACTS, `turn-undo-done-${width}x${height}-${testDatabaseKind()}.png`) });
  }

  // A change after the write: the undo is refused, and the card says why.
  problems.allow((p) => p.kind === 'console' && p.text.includes('409') && p.url.endsWith('/undo'));
  await message.fill(AGAIN);
  await message.press('Enter');
  const second = log.getByRole('region', { name: /update_schema/ }).nth(1);
  await second.getByRole('button', { name: 'Approve update_schema', exact: true }).click();
  await log.getByText(DONE).nth(1).waitFor();
  await api(page, 'POST', `${org}/schemas`, {
    name: 'Receipt',
    response_format: strictResponseFormat({ sum: { type: 'number' } }),
  });
  await second.getByRole('button', { name: 'Undo update_schema' }).click();
  await second
    .getByRole('alert')
    .getByText(/changed after this call saved version 4: it is at version 5 now/)
    .waitFor();
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.screenshot({ path: join(ARTIFACTS, `turn-undo-refused-1280x720-${testDatabaseKind()}.png`) });
}
