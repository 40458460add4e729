import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, runScenario, signInFirstTime, textOf, waitForPrompts } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn } from './responses-requests.ts';

const RED = 'Make the urgent tag red';
const BLUE = 'Make the urgent tag blue';
const DONE = 'The tag has its new color.';

let app: FakeLlmApp;
let tagId = '';

/** Each message is one update_tag call on the same tag with a new color, then a sentence once it ran. */
function reply(request: RecordedRequest): FakeReply {
  if (!request.body?.tools) return { text: '{"summary":"x"}' };
  const asked = lastUserText(request);
  const color = asked.includes(RED) ? '#dc2626' : asked.includes(BLUE) ? '#2563eb' : null;
  if (color === null) return { text: 'I do not know that one.' };
  return outputsOfTurn(request).length === 0
    ? { toolCalls: [{ name: 'update_tag', arguments: { tag_id: tagId, color } }] }
    : { text: `${DONE} (${color})` };
}

before(async () => {
  app = await startFakeLlmApp('permission-rules');
  app.fake.setHandler(reply);
});

after(async () => {
  await app?.close();
});

test(`"Always approve calls like this" writes a rule: the next such call runs without asking; Settings lists and removes it (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'permission-rules', { width: 1440, height: 900 }, walkThrough);
});

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const origin = new URL(page.url()).origin;
  tagId = (await api<{ id: string }>(page, 'POST', `${org}/tags`, { name: 'urgent', color: '#64748b' })).id;
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'memo.txt', content: Buffer.from('A memo.').toString('base64') }],
  });
  const documentId = documents[0]?.document_id ?? '';
  await waitForPrompts(page, `${org}/documents/${documentId}`);

  await page.goto(`${origin}/orgs/${orgId}/documents/${documentId}`);
  const chat = page.getByRole('region', { name: 'Chat' });
  const log = chat.getByRole('log', { name: 'Conversation' });
  const message = chat.getByRole('textbox', { name: 'Message' });
  // The answer's text shows before its turn ends; Enter sends nothing until the button says Send again.
  const idle = chat.getByRole('form', { name: 'Message the agent' }).getByRole('button', { name: 'Send', exact: true });
  await chat.getByRole('combobox', { name: 'Model', exact: true }).locator('option', { hasText: 'openai:' }).first().waitFor({
    state: 'attached',
  });

  // The first call asks; "calls like this" approves it and writes the person's rule.
  await message.fill(RED);
  await message.press('Enter');
  const first = log.getByRole('region', { name: /update_tag/ }).first();
  await first.getByText('waiting for approval').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `rules-card-${testDatabaseKind()}.png`) });
  await first.getByRole('button', { name: 'Always approve calls like this of update_tag' }).click();
  await log.getByText(`${DONE} (#dc2626)`).waitFor();

  // The next call on the same tag runs at once.
  await idle.waitFor();
  await message.fill(BLUE);
  await message.press('Enter');
  await log.getByText(`${DONE} (#2563eb)`).waitFor();
  const second = log.getByRole('region', { name: /update_tag/ }).nth(1);
  await second.getByText('done', { exact: true }).waitFor();
  assert.equal(await log.getByText('waiting for approval').count(), 0, 'nothing waited');
  const { color } = await api<{ color: string }>(page, 'GET', `${org}/tags/${tagId}`);
  assert.equal(color, '#2563eb');

  // Settings → Rules lists it, with what it covers; it is removed there.
  await page.goto(`${origin}/orgs/${orgId}/settings/rules`);
  const section = page.getByRole('region', { name: 'Rules' });
  const row = section.getByRole('row').filter({ hasText: 'update_tag' });
  await row.waitFor();
  assert.match(await textOf(row), new RegExp(`tag_id = ${tagId}`));
  assert.match(await textOf(row), /Mine/);
  for (const [width, height] of [
    [1280, 720],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({
      path: join(ARTIFACTS, `rules-settings-${width}x${height}-${testDatabaseKind()}.png`),
      fullPage: true,
    });
  }
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Remove the rule on update_tag' }).click();
  await section.getByText('No rules yet.').waitFor();
  const { rules } = await api<{ rules: unknown[] }>(page, 'GET', `${org}/permission-rules`);
  assert.deepEqual(rules, []);
}
