import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Page } from 'playwright-core';
import { type MentionChoice, openMentionAt } from '../../../web/src/chat/mentions.ts';
import { noticesOf, withNotices } from '../../../web/src/chat/threadNotices.ts';
import { api, openAccountMenu, runScenario, signInFirstTime, waitForPrompts, within } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import {
  type AgentPanel,
  agentPanelOf,
  measure,
  SIZES,
  screenshot,
  screenshotBothThemes,
  waitForAutoCreate,
} from './workspace-checks.ts';
import {
  CHANGE_TOTAL,
  HELLO,
  handle,
  INVOICE_VALUES,
  LONG_ANSWER_LINES,
  MENTION_QUESTION,
  SET_UP,
  slow,
  TAG_IT,
  TAKE_YOUR_TIME,
  TELL_MORE,
} from './workspace-model.ts';

/**
 * Issue 16's first point: the document page as a workspace. A person works through the states that
 * used to push the message box and the approval buttons below the window (a pending write with a
 * long JSON argument, the current extraction open, the auto-create review card, no model), at
 * 1440×900 and at 1280×720 and 1920×1080, with the fake provider scripted as the model.
 */

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('workspace-layout');
  app.fake.setHandler(handle);
});

after(async () => {
  slow.release();
  await app?.close();
});

test('notices the stored thread does not keep go back after the message they followed; a chosen mention is done', () => {
  const user = (key: string) => ({ kind: 'user', key, text: key });
  const stopped = { kind: 'notice', key: 'n1', text: 'Stopped.' };
  const shown = [user('a'), user('b'), stopped];
  const placed = noticesOf(shown);
  assert.deepEqual(placed, [{ notice: stopped, afterUserMessages: 2 }]);
  assert.deepEqual(
    withNotices([user('a'), user('b'), user('c')], placed).map((item) => item.key),
    ['a', 'b', 'n1', 'c'],
    'before the next message, once the thread went on',
  );
  assert.deepEqual(
    withNotices([user('a')], placed).map((item) => item.key),
    ['a', 'n1'],
  );

  const invoice: MentionChoice = { type: 'schema', id: 'rev1', label: 'Invoice', detail: 'schema v1' };
  assert.deepEqual(openMentionAt('Explain @Inv', 12, []), { start: 8, query: 'Inv' });
  const chosen = 'Explain @Invoice which';
  assert.equal(openMentionAt(chosen, chosen.length, [invoice]), null, 'the text after a chosen mention is no query');
  assert.deepEqual(openMentionAt(chosen, chosen.length, []), { start: 8, query: 'Invoice which' });
});

test(`the document page is a workspace: the approval and the message box stay in view (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'workspace-layout', { width: 1440, height: 900 }, scenario);
});

async function scenario(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const text = 'ACME Corp\nInvoice INV-2024-0042\nTotal due: 1,250.50 USD\n';
  const folder = mkdtempSync(join(tmpdir(), 'workspace-'));
  const file = (name: string) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  };

  // Uploaded through the drop zone as a newcomer does: one plain, one with auto-create asked for.
  const uploads = page.getByRole('region', { name: 'Uploads' });
  const autoCreate = page.getByRole('checkbox', { name: 'Auto-create schema & prompt' });
  await autoCreate.and(page.locator(':enabled')).waitFor();
  await page.getByLabel('Upload documents').setInputFiles(file('plain.txt'));
  await uploads.getByRole('listitem', { name: 'plain.txt' }).getByText('Done').waitFor();
  await autoCreate.check();
  await page.getByLabel('Upload documents').setInputFiles(file('proposed.txt'));
  await uploads.getByRole('listitem', { name: 'proposed.txt' }).getByText('Done').waitFor();
  rmSync(folder, { recursive: true, force: true });
  const listed = await api<{ documents: { id: string; document_name: string }[] }>(page, 'GET', `${org}/documents`);
  const idOf = (name: string) => listed.documents.find((document) => document.document_name === name)?.id;
  const [plainId, proposedId] = [idOf('plain.txt'), idOf('proposed.txt')];
  assert.ok(plainId && proposedId, `both uploads are listed: ${JSON.stringify(listed)}`);
  await waitForPrompts(page, `${org}/documents/${plainId}`);
  const proposed = await waitForAutoCreate(page, `${org}/documents/${proposedId}`);
  assert.equal(proposed.auto_create_status, 'proposed', proposed.auto_create_error);
  const table = page.getByRole('region', { name: 'Documents' });
  await table
    .getByRole('row', { name: /proposed\.txt/ })
    .getByText('Needs review')
    .waitFor();
  await screenshotBothThemes(page, 'documents-list-1440x900');
  await table.getByRole('link', { name: 'plain.txt', exact: true }).click();
  const agent = await agentPanelOf(page, 'plain.txt');
  await plainDocument(page, agent);
  await noModel(page, agent);

  // The next or previous document of the list, by the keyboard.
  await page.setViewportSize({ width: 1440, height: 900 });
  const order = listed.documents.map((document) => document.id);
  await leaveTheMessageBox(page);
  await page.keyboard.press(order.indexOf(proposedId) > order.indexOf(plainId) ? 'j' : 'k');
  await autoCreateCard(page, await agentPanelOf(page, 'proposed.txt'));

  const { threads } = await api<{ threads: { title: string }[] }>(page, 'GET', `${org}/documents/${plainId}/chat/threads`);
  assert.ok(
    threads.some((thread) => thread.title === 'Long schema work'),
    `the rename is stored: ${JSON.stringify(threads)}`,
  );
}

/** A plain document: a long pending write, the extraction drawer, following, mentions, stop, threads, the three sizes. */
async function plainDocument(page: Page, agent: AgentPanel): Promise<void> {
  const { log, message, pinned } = agent;
  const empty = await measure(page, agent, '1440×900, an empty conversation');
  assert.ok(empty.log >= 520, `the conversation has the room at 1440×900: ${empty.log}px`);

  // A write with a long JSON argument: pinned above the message box with its buttons, its card in view.
  await agent.say(SET_UP);
  const card = log.getByRole('region', { name: /create_schema/ });
  await card.getByText('waiting for approval').waitFor();
  await pinned.getByText('create_schema', { exact: true }).waitFor();
  assert.match(
    (await message.getAttribute('placeholder')) ?? '',
    /^create_schema waits for your approval: Approve or Reject it just above\.$/,
  );
  await measure(page, agent, '1440×900, a pending write', { approval: true, inLog: card });
  await pinned.getByRole('button', { name: 'Arguments' }).click();
  await pinned.getByText('"field_18"', { exact: false }).waitFor();
  await measure(page, agent, '1440×900, the pending write with its arguments shown', { approval: true });
  await screenshot(page, 'workspace-pending-arguments-1440x900');

  // The current extraction, open as a drawer, leaves both in view.
  await agent.extractionToggle.click();
  await agent.extraction.waitFor();
  await measure(page, agent, '1440×900, current extraction open', { approval: true });
  await screenshot(page, 'workspace-extraction-open-1440x900');
  await agent.extractionToggle.click();

  // Approved from the pinned bar; the long answer that follows is followed to its end.
  await pinned.getByRole('button', { name: 'Approve', exact: true }).click();
  await card.getByText('done', { exact: true }).waitFor();
  await pinned.waitFor({ state: 'detached' });
  await log.getByText(`line ${LONG_ANSWER_LINES} of The schema is created`).waitFor();
  const left = await agent.distanceFromBottom();
  assert.ok(
    left <= 2,
    `the conversation followed the answer to its end: ${left}px left, jump shown: ${await agent.jump.count()}`,
  );

  // Scrolled up to read, the conversation stays where the person is; "Jump to the latest" goes down.
  await log.evaluate((element) => {
    element.scrollTop = 0;
  });
  await agent.jump.waitFor();
  await agent.say(TELL_MORE);
  await log.getByText(`line ${LONG_ANSWER_LINES} of More about it`).waitFor({ state: 'attached' });
  await agent.panel.getByRole('button', { name: 'Send', exact: true }).waitFor();
  assert.equal(await log.evaluate((element) => element.scrollTop), 0, 'the new answer did not pull the person down');
  await agent.jump.click();
  await agent.jump.waitFor({ state: 'detached' });
  assert.ok((await agent.distanceFromBottom()) <= 2, 'back at the latest');

  // Its result in words and a field table, with a link by name; the JSON one click away.
  await card.getByRole('link', { name: 'Long invoice' }).waitFor();
  const fields = card.getByRole('table', { name: 'Fields of Long invoice' });
  await fields.getByRole('row', { name: /field_18 \* text The 18th value/ }).waitFor();
  assert.equal(await card.getByText('"schema_revid"').count(), 0, 'no raw JSON until asked for');
  await card.getByText('Raw result').click();
  await card.getByText('"schema_revid"', { exact: false }).waitFor();

  // A chosen mention closes the list, which stays closed while the message goes on.
  await agent.idle.waitFor();
  await message.click();
  await message.pressSequentially('Explain @Long');
  const mentions = agent.panel.getByRole('listbox', { name: 'Mention' });
  await mentions.getByRole('option', { name: /Long invoice/ }).waitFor();
  await message.press('Enter');
  await mentions.waitFor({ state: 'detached' });
  await message.pressSequentially(` ${MENTION_QUESTION}`);
  assert.equal(await mentions.count(), 0, 'no "No … matches" list after the choice');
  await message.press('Enter');
  await log.getByText('It has eighteen fields.').waitFor();

  // Stopped, then another thread and back: the conversation still says it was stopped.
  await agent.say(TAKE_YOUR_TIME);
  await within(slow.arrived, 60_000, 'the slow model call reaching the fake provider');
  await agent.panel.getByRole('button', { name: 'Stop' }).click();
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await agent.panel.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
  slow.release();
  await agent.panel.getByRole('button', { name: 'New', exact: true }).click();
  await agent.say(HELLO);
  await log.getByText('Hello to you.').waitFor();
  await agent.openThread(SET_UP);
  await log.getByText('It has eighteen fields.').waitFor();
  await log.getByText('Stopped.', { exact: true }).waitFor();

  // Renamed in the picker.
  await agent.renameThread(SET_UP, 'Long schema work');
  await agent.threadSummary.filter({ hasText: 'Long schema work' }).waitFor();

  // The three sizes, with and without a pending write.
  await agent.say(TAG_IT);
  await pinned.getByText('create_tag', { exact: true }).waitFor();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await measure(page, agent, `${size.width}×${size.height}, a pending write`, { approval: true });
    await screenshotBothThemes(page, `workspace-layout-${size.width}x${size.height}`);
  }
  await shortcutsAndTheme(page, agent);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await measure(page, agent, `${size.width}×${size.height}, the conversation`);
  }
}

/**
 * The keyboard: `?` lists the shortcuts, `r` rejects the pinned approval, `/` goes back to the
 * message box, `]` and `[` hide and show the panels. Then the theme chosen in the header wins over
 * the system's until "System theme" is chosen again.
 */
async function shortcutsAndTheme(page: Page, agent: AgentPanel): Promise<void> {
  await leaveTheMessageBox(page);
  await page.keyboard.press('?');
  const list = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await list.waitFor();
  const row = (label: string) => list.getByRole('row', { name: new RegExp(label) });
  assert.equal(await row('Approve the pending action').getAttribute('aria-disabled'), 'false', 'approving is offered here');
  assert.equal(await row('Next document|Previous document').first().count(), 1);
  await screenshot(page, 'shortcuts-1280x720', { width: 1280, height: 720 });
  await page.keyboard.press('Escape');
  await list.waitFor({ state: 'hidden' });

  await page.keyboard.press('r');
  await agent.log.getByText('Not tagged.').waitFor();
  await agent.pinned.waitFor({ state: 'detached' });
  await page.keyboard.press('/');
  assert.equal(
    await page.evaluate('document.activeElement?.getAttribute("aria-keyshortcuts")'),
    '/',
    '/ focuses the message box',
  );
  await leaveTheMessageBox(page);
  await page.keyboard.press(']');
  await page.getByRole('button', { name: 'Expand agent panel' }).waitFor();
  await page.keyboard.press(']');
  await agent.message.waitFor();
  await page.keyboard.press('[');
  await page.getByRole('button', { name: 'Expand side panel' }).waitFor();
  await page.keyboard.press('[');
  await page.getByRole('button', { name: 'Collapse side panel' }).waitFor();

  const isDark = () => page.evaluate('document.documentElement.classList.contains("dark")');
  await (await openAccountMenu(page)).locator('label', { hasText: 'Dark' }).click();
  assert.equal(await isDark(), true, 'the chosen dark theme');
  await page.reload();
  await agent.message.waitFor();
  assert.equal(await isDark(), true, 'the choice is kept over a reload, on a light system');
  const menu = await openAccountMenu(page);
  await menu.getByRole('button', { name: /Keyboard shortcuts/ }).click();
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await page.keyboard.press('Escape');
  await (await openAccountMenu(page)).locator('label', { hasText: 'System' }).click();
  assert.equal(await isDark(), false, 'back to the light system');
  await page.keyboard.press('Escape');
}

/** Shortcuts are keys pressed outside a text field. */
const leaveTheMessageBox = (page: Page) => page.evaluate('document.activeElement?.blur()');

/** No model at all: both notices, and the message box still in view. */
async function noModel(page: Page, agent: AgentPanel): Promise<void> {
  const noModels = {
    models: [],
    default_model: null,
    configure_hint:
      'No LLM provider is configured. Set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, MISTRAL_API_KEY, GROQ_API_KEY, XAI_API_KEY, DEEPSEEK_API_KEY or OPENROUTER_API_KEY on the server, or configure a provider in Settings → Models.',
  };
  await page.route(/\/llm\/models(\?|$)/, (route) => route.fulfill({ json: noModels }));
  await page.reload();
  await agent.panel.getByText('No chat model is configured').waitFor();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await measure(page, agent, `${size.width}×${size.height}, no model`);
  }
  await screenshot(page, 'workspace-no-model-1280x720', { width: 1280, height: 720 });
  await page.unroute(/\/llm\/models(\?|$)/);
  await page.reload();
  await agentPanelOf(page, 'plain.txt');
}

/** The auto-create review card, then a refinement's pending write under it. */
async function autoCreateCard(page: Page, agent: AgentPanel): Promise<void> {
  const banner = agent.panel.getByRole('region', { name: 'Auto-create proposal' });
  await banner.getByText(INVOICE_VALUES.invoice_number).waitFor();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await measure(page, agent, `${size.width}×${size.height}, the auto-create card`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshotBothThemes(page, 'workspace-auto-create-1440x900');

  await banner.getByRole('button', { name: 'Refine in chat' }).click();
  await agent.log.getByText('I set up extraction for this invoice.').waitFor();
  await agent.say(CHANGE_TOTAL);
  await agent.pinned.getByText('update_extraction_field', { exact: true }).waitFor();
  await agent.extractionToggle.click();
  await agent.extraction.getByText('1250.5').waitFor();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await measure(page, agent, `${size.width}×${size.height}, the auto-create card, a pending write, extraction open`, {
      approval: true,
    });
  }
  await screenshot(page, 'workspace-auto-create-pending-1280x720', { width: 1280, height: 720 });
  await agent.pinned.getByRole('button', { name: 'Approve', exact: true }).click();
  await agent.log.getByText('The total is 1300 now.').waitFor();
  await banner.getByText('1300', { exact: true }).waitFor();
  // The change in words, and the values as a table.
  const change = agent.log.getByRole('region', { name: /update_extraction_field/ });
  await change.getByText('total: 1250.5 → 1300').waitFor();
  await change
    .getByRole('table', { name: 'Extracted values' })
    .getByRole('row', { name: 'invoice_number INV-2024-0042' })
    .waitFor();
  await screenshot(page, 'workspace-tool-results-1440x900', { width: 1440, height: 900 });
}
