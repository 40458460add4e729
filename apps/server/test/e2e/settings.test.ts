import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import {
  ARTIFACTS,
  api,
  assertFitsWindow,
  replaceOneTimePassword,
  runScenario,
  signInFirstTime,
  watchBrowserProblems,
} from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn } from './responses-requests.ts';

const TAG_IT = 'Tag this document as urgent';
const NEWCOMER = 'newcomer@example.test';

/** Every section, as the nav names it and as its heading reads. */
const SECTIONS = [
  { link: 'Models', heading: 'Models', path: 'models' },
  { link: 'Model choices', heading: 'Model choices', path: 'model-choices' },
  { link: 'Auto-create', heading: 'Auto-create', path: 'auto-create' },
  { link: 'Members', heading: 'Members', path: 'members' },
  { link: 'API tokens', heading: 'API tokens', path: 'tokens' },
  { link: 'Webhooks', heading: 'Webhooks', path: 'webhooks' },
  { link: 'Rules', heading: 'Rules', path: 'rules' },
  { link: 'Usage', heading: 'Usage', path: 'usage' },
  { link: 'Agent runs', heading: 'Agent runs', path: 'agent-runs' },
  { link: 'Your account', heading: 'Your account', path: 'account' },
];
const USER_SECTIONS = ['Models', 'Model choices', 'Auto-create', 'API tokens', 'Rules', 'Your account'];

let app: FakeLlmApp;

/** The default prompt's summary, and an agent that reads the tags (allowed) and then creates one (asks). */
function reply(request: RecordedRequest): FakeReply {
  if (!request.body?.tools) return { text: '{"summary":"An invoice."}' };
  if (!lastUserText(request).includes(TAG_IT)) return { text: 'I do not know that one.' };
  const outputs = outputsOfTurn(request);
  if (outputs.length === 0) return { toolCalls: [{ name: 'list_tags', arguments: {} }] };
  if (outputs.length === 1) return { toolCalls: [{ name: 'create_tag', arguments: { name: 'urgent', color: '#dc2626' } }] };
  return { text: 'Tagged.' };
}

before(async () => {
  app = await startFakeLlmApp('settings');
  app.fake.setHandler(reply);
});
after(() => app?.close());

const shot = (page: Page, name: string, size: string) =>
  page.screenshot({ path: join(ARTIFACTS, `settings-${name}-${size}-${testDatabaseKind()}.png`) });

const settingsNav = (page: Page) => page.getByRole('navigation', { name: 'Settings sections' });

async function openSection(page: Page, link: string, heading: string): Promise<void> {
  await settingsNav(page).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: /^Loading/ })
    .waitFor({ state: 'detached' });
}

/** An agent run through the API: list_tags runs, create_tag waits for approval and is approved. */
async function runTheAgent(page: Page, org: string): Promise<string> {
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'invoice.txt', content: Buffer.from('ACME Corp\nInvoice 42\nTotal: 10 USD\n').toString('base64') }],
  });
  const documentId = documents[0]?.document_id ?? '';
  const chat = `${org}/documents/${documentId}/chat`;
  const paused = await api<{ turn_id: string; tool_calls: { id: string; name: string }[] }>(page, 'POST', chat, {
    messages: [{ role: 'user', content: TAG_IT }],
    stream: false,
  });
  const call = paused.tool_calls.find((c) => c.name === 'create_tag');
  assert.ok(call, `the turn waits for create_tag: ${JSON.stringify(paused)}`);
  const done = await api<{ text: string }>(page, 'POST', `${chat}/approve`, {
    turn_id: paused.turn_id,
    approvals: [{ call_id: call.id, approved: true }],
    stream: false,
  });
  assert.equal(done.text, 'Tagged.');
  return documentId;
}

/** The new member signs in with the one-time password, chooses their own, and sees only what users may. */
async function newcomerSignsIn(origin: string, orgId: string, oneTimePassword: string): Promise<void> {
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 720 } });
  try {
    const theirs = await context.newPage();
    const problems = await watchBrowserProblems(theirs);
    await theirs.goto(`${origin}/login?email=${encodeURIComponent(NEWCOMER)}`);
    await theirs.getByLabel('Password').fill(oneTimePassword);
    await theirs.getByRole('button', { name: 'Sign in' }).click();
    await theirs.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await replaceOneTimePassword(theirs, oneTimePassword);
    await theirs.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await theirs.getByRole('heading', { level: 2, name: 'Models', exact: true }).waitFor();
    const links = await settingsNav(theirs).getByRole('link').allTextContents();
    assert.deepEqual(links, USER_SECTIONS, 'a user sees only the sections users may');
    await theirs.getByText("Only the organization's admins can change these settings.").waitFor();
    await theirs.goto(`${origin}/orgs/${orgId}/settings/members`);
    await theirs.getByText('Only the admins of My organization can see its members.').waitFor();
    await theirs.screenshot({ path: join(ARTIFACTS, `settings-members-as-user-1280x720-${testDatabaseKind()}.png`) });
    problems.assertNone();
  } finally {
    await context.close();
  }
}

async function members(page: Page, origin: string, orgId: string): Promise<void> {
  const table = page.getByRole('table').filter({ hasText: 'Member' });
  const me = page.getByRole('row').filter({ hasText: 'admin@docagent.local' });
  await me.getByText('The only admin').waitFor();
  assert.ok(await me.getByRole('combobox', { name: 'Role of admin@docagent.local' }).isDisabled(), 'the last admin stays admin');
  assert.ok(await me.getByRole('button', { name: 'Remove admin@docagent.local' }).isDisabled(), 'and stays');

  const form = page.getByRole('form', { name: 'Add a member' });
  await form.getByLabel('Email').fill(NEWCOMER);
  await form.getByLabel('Name (new accounts)').fill('New Comer');
  await form.getByRole('button', { name: 'Add member' }).click();
  const password = ((await page.getByTestId('one-time-password').textContent()) ?? '').trim();
  assert.match(password, /^\w{20}$/, 'the one-time password is shown');
  await page.getByText(`Account created for ${NEWCOMER}, as a user`).waitFor();
  const row = table.getByRole('row').filter({ hasText: NEWCOMER });
  await row.getByText('Not signed in yet').waitFor();
  await shot(page, 'members-added', '1440x900');
  await assertFitsWindow(page, 'Members with a one-time password shown');

  await newcomerSignsIn(origin, orgId, password);
  await page.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await row.getByText('Active').waitFor();

  await row.getByRole('combobox', { name: `Role of ${NEWCOMER}` }).selectOption('admin');
  await me.getByText('The only admin').waitFor({ state: 'detached' });
  const listed = await api<{ members: { email: string; role: string }[] }>(page, 'GET', `/v0/orgs/${orgId}/members`);
  assert.equal(listed.members.find((m) => m.email === NEWCOMER)?.role, 'admin', 'the role is saved');
  assert.ok(
    await me.getByRole('combobox', { name: 'Role of admin@docagent.local' }).isEnabled(),
    'with two admins, either may step down',
  );

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: `Remove ${NEWCOMER}` }).click();
  await row.waitFor({ state: 'detached' });
  await me.getByText('The only admin').waitFor();
}

async function usage(page: Page): Promise<void> {
  const totals = page.locator('dl[aria-label="Totals"]');
  assert.match((await totals.textContent()) ?? '', /LLM calls[1-9]/, 'the month has calls');
  const perModel = page.getByRole('table', { name: 'Usage per model' });
  await perModel
    .getByRole('rowheader', { name: /^openai:/ })
    .first()
    .waitFor();
  const perOperation = page.getByRole('table', { name: 'Usage per operation' });
  await perOperation.getByRole('rowheader', { name: 'Agent conversations' }).waitFor();
  await perOperation.getByRole('rowheader', { name: 'Prompt extractions' }).waitFor();
  assert.ok(await page.getByRole('button', { name: 'Next month' }).isDisabled(), 'no month after this one');
  await page.getByRole('button', { name: 'Previous month' }).click();
  await page.getByText(/^No LLM calls in /).waitFor();
  assert.match(page.url(), /month=\d{4}-\d{2}/, 'the month is in the link');
  await page.getByRole('button', { name: 'Next month' }).click();
  await perModel.waitFor();
}

async function agentRun(page: Page, documentId: string): Promise<void> {
  const row = page.getByRole('row').filter({ hasText: 'invoice.txt' });
  await row.getByText('admin@docagent.local').waitFor();
  await row.getByText('Finished').waitFor();
  assert.equal((await row.getByRole('cell').nth(5).textContent())?.trim(), '2', 'two tool calls');
  const subject = await row.getByRole('link', { name: 'invoice.txt' }).getAttribute('href');
  assert.ok(subject?.endsWith(`/documents/${documentId}`), `the subject links to its document: ${subject}`);
  await row.getByRole('link', { name: /^Details of the run/ }).click();
  await page.getByRole('heading', { level: 2, name: 'Agent run' }).waitFor();
  const calls = page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem');
  await calls.nth(1).waitFor();
  const [listTags, createTag] = [calls.nth(0), calls.nth(1)];
  await listTags.getByText('list_tags', { exact: true }).waitFor();
  await listTags.getByText('Allowed', { exact: true }).waitFor();
  await createTag.getByText('create_tag', { exact: true }).waitFor();
  await createTag.getByText('Approved', { exact: true }).waitFor();
  await createTag.getByText(/^Reason: /).waitFor();
  const args = createTag.locator('details').filter({ hasText: 'Arguments' });
  assert.equal(await args.getAttribute('open'), null, 'arguments start collapsed');
  await args.getByText('Arguments').click();
  await args.getByText('"urgent"').waitFor();
  await createTag.locator('details').filter({ hasText: 'Output' }).getByText('Output').click();
  await shot(page, 'agent-run', '1440x900');
}

test(`Settings: a section per route, members with one-time passwords, usage and agent runs (${testDatabaseKind()})`, async () => {
  await runScenario(app.browser, 'settings', { width: 1440, height: 900 }, async (page) => {
    await signInFirstTime(page, app.server);
    const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1] ?? '';
    const origin = new URL(page.url()).origin;
    const documentId = await runTheAgent(page, `/v0/orgs/${orgId}`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Models', exact: true }).waitFor();
    assert.ok(page.url().endsWith(`/orgs/${orgId}/settings/models`), `Settings opens its first section: ${page.url()}`);
    assert.deepEqual(
      await settingsNav(page).getByRole('link').allTextContents(),
      SECTIONS.map((s) => s.link),
    );

    for (const section of SECTIONS) {
      await openSection(page, section.link, section.heading);
      assert.ok(page.url().endsWith(`/settings/${section.path}`), `${section.link} has its own route: ${page.url()}`);
      await assertFitsWindow(page, section.link);
      await shot(page, section.path, '1440x900');
      if (section.path === 'members') await members(page, origin, orgId);
      if (section.path === 'usage') await usage(page);
      if (section.path === 'agent-runs') await agentRun(page, documentId);
    }

    // The same sections in a smaller window.
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const section of SECTIONS) {
      await openSection(page, section.link, section.heading);
      await assertFitsWindow(page, `${section.link} at 1280×720`);
      await shot(page, section.path, '1280x720');
    }
    await page.goto(`${origin}/orgs/${orgId}/settings/no-such-section`);
    await page.getByRole('heading', { level: 2, name: 'Models', exact: true }).waitFor();
    assert.ok(page.url().endsWith('/settings/models'), `an unknown section goes to the first: ${page.url()}`);
  });
});
