import assert from 'node:assert/strict';
import { join } from 'node:path';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Locator, Page } from 'playwright-core';
import { ARTIFACTS, api, EXTRACTION_TIMEOUT_MS, fontsLoaded } from './browser.ts';

/** The window sizes the document page is checked at (issue 16). */
export const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The agent panel's parts a person uses, found as they are named on screen. */
export function agentPanel(page: Page) {
  const panel = page.getByRole('region', { name: 'Agent panel' });
  const log = panel.getByRole('log', { name: 'Conversation' });
  const threadSummary = panel.locator('summary', { hasText: 'Conversation:' });
  const threadList = panel.getByRole('dialog', { name: 'Conversations' });
  const message = panel.getByRole('textbox', { name: 'Message' });
  const idle = panel.getByRole('form', { name: 'Message the agent' }).getByRole('button', { name: 'Send', exact: true });
  return {
    panel,
    log,
    message,
    send: panel.getByRole('form', { name: 'Message the agent' }).getByRole('button', { name: /^(Send|Working…)$/ }),
    pinned: panel.getByRole('region', { name: 'Pending approval' }),
    extraction: panel.getByRole('region', { name: 'Current extraction' }),
    extractionToggle: panel.getByRole('button', { name: /^Current extraction/i }),
    jump: panel.getByRole('button', { name: 'Jump to the latest ↓' }),
    threadSummary,
    /** Waits until no turn runs (the button says Send, not Working…), then sends the message. */
    async say(text: string) {
      await idle.waitFor();
      await message.fill(text);
      await message.press('Enter');
    },
    idle,
    distanceFromBottom: () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight),
    /** Opens the conversation whose title starts with the text, from the thread picker. */
    async openThread(title: string) {
      await threadSummary.click();
      await threadList.getByRole('button', { name: new RegExp(`^${escaped(title)}`) }).click();
      await threadList.waitFor({ state: 'detached' });
    },
    async renameThread(title: string, next: string) {
      await threadSummary.click();
      await threadList.getByRole('button', { name: new RegExp(`^Rename “${escaped(title)}`) }).click();
      await threadList.getByRole('textbox', { name: 'New title' }).fill(next);
      await threadList.getByRole('button', { name: 'Save' }).click();
      await threadList.getByRole('button', { name: new RegExp(`^${escaped(next)}`) }).waitFor();
      await page.keyboard.press('Escape');
      await threadList.waitFor({ state: 'detached' });
    },
  };
}

export type AgentPanel = ReturnType<typeof agentPanel>;

/** Waits for the document page and its agent panel, ready to send (the models listed). */
export async function agentPanelOf(page: Page, name: string): Promise<AgentPanel> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
  const agent = agentPanel(page);
  await agent.panel
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });
  return agent;
}

/** The layout settles on the frames after a resize or a click. */
const nextFrames = (page: Page) =>
  // A frame that never comes (a stalled renderer on a busy machine) must not hang the test: a second at most.
  page.evaluate(
    'new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(resolve)); setTimeout(resolve, 1000); })',
  );

async function assertInView(page: Page, locator: Locator, what: string): Promise<void> {
  const viewport = page.viewportSize();
  const box = await locator.boundingBox();
  assert.ok(viewport && box, `${what} is shown`);
  assert.ok(
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height,
    `${what} is inside the ${viewport.width}×${viewport.height} window: ${JSON.stringify(box)}`,
  );
}

/**
 * Asserts the layout in the state the page is in: the page does not scroll, the composer's Send
 * (and the pinned approval's Approve, when one is pending) is inside the window, `inLog` is in the
 * conversation's visible part; returns the conversation's height, which the test output lists.
 */
export async function measure(
  page: Page,
  agent: AgentPanel,
  label: string,
  expect: { approval?: boolean; inLog?: Locator } = {},
): Promise<{ log: number }> {
  await nextFrames(page);
  await fontsLoaded(page);
  const pageScroll = Number(await page.evaluate('document.documentElement.scrollHeight - window.innerHeight'));
  if (pageScroll > 0) {
    // What reaches below the window, for the failure to name (its parent does not).
    const below = await page.evaluate(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().bottom > innerHeight + 1 && e.parentElement.getBoundingClientRect().bottom <= innerHeight + 1).map((e) => e.tagName + '.' + String(e.className).slice(0, 80)).slice(0, 5)`,
    );
    assert.fail(`${label}: the page itself scrolls by ${pageScroll}px: ${JSON.stringify(below)}`);
  }
  await assertInView(page, agent.send, `${label}: Send`);
  if (expect.approval) {
    await assertInView(page, agent.pinned.getByRole('button', { name: 'Approve', exact: true }), `${label}: Approve`);
    await assertInView(page, agent.pinned.getByRole('button', { name: 'Reject', exact: true }), `${label}: Reject`);
  }
  const log = await agent.log.boundingBox();
  assert.ok(log, `${label}: the conversation is shown`);
  if (expect.inLog) {
    const item = await expect.inLog.boundingBox();
    assert.ok(item && item.y < log.y + log.height && item.y + item.height > log.y, `${label}: the card is in view`);
  }
  console.log(`conversation height, ${label}: ${Math.round(log.height)}px`);
  return { log: Math.round(log.height) };
}

export async function screenshot(page: Page, name: string, size?: { width: number; height: number }): Promise<void> {
  if (size) await page.setViewportSize(size);
  await nextFrames(page);
  await page.screenshot({ path: join(ARTIFACTS, `${name}-${testDatabaseKind()}.png`) });
}

/** The same screen in the light and the dark theme (the app follows the system's, which this emulates). */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html.dark').waitFor({ state: 'attached' });
  await screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.locator('html:not(.dark)').waitFor({ state: 'attached' });
  await screenshot(page, name);
}

interface AutoCreated {
  state: string;
  auto_create_status?: string;
  auto_create_error?: string;
}

/** Waits (by the API) until the document's auto-create has left pending and running. */
export async function waitForAutoCreate(page: Page, documentPath: string): Promise<AutoCreated> {
  const deadline = Date.now() + EXTRACTION_TIMEOUT_MS;
  for (;;) {
    const doc = await api<AutoCreated>(page, 'GET', `${documentPath}?include_content=false`);
    if (doc.auto_create_status !== 'pending' && doc.auto_create_status !== 'running') return doc;
    assert.ok(Date.now() < deadline, `auto-create is still ${doc.auto_create_status} (document ${doc.state})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
