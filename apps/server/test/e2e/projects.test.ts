import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { unifiedDiff } from '@docagent/core';
import { testDatabaseKind } from '@docagent/core/testing';
import type { RecordedRequest } from '@docagent/fake-llm';
import type { Locator, Page } from 'playwright-core';
import { api, assertFitsWindow, runScenario, signInFirstTime, untilStored } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { idIn, lastUserText, outputsOfTurn, systemText } from './responses-requests.ts';
import { agentPanel, screenshot, screenshotBothThemes } from './workspace-checks.ts';

/**
 * Projects and notes (issue 18): a project made from the Projects page, a note the agent writes
 * once approved, then a change the agent proposes as a diff (the rewrite's own model call answers
 * with the new Markdown); approved, the note is at version 2 and its history shows what changed.
 */

const PROJECT = 'Home cooking';
const NOTE = 'Favourite recipes';
const INSTRUCTION = 'One section per recipe, its ingredients as a list';

const VERSION_1 = [
  '# Favourite recipes',
  '',
  '## Pancakes',
  '',
  '- 2 eggs',
  '- 200 g flour',
  '- 300 ml milk',
  '',
  '## Tomato soup',
  '',
  '- 1 kg tomatoes',
  '- 1 onion',
  '- 500 ml vegetable stock',
  '',
].join('\n');

const VERSION_2 = [
  '# Favourite recipes',
  '',
  '## Waffles',
  '',
  '- 2 eggs',
  '- 250 g flour',
  '- 400 ml milk',
  '- 100 g melted butter',
  '',
  '## Tomato soup',
  '',
  '- 1 kg tomatoes',
  '- 1 onion',
  '- 500 ml vegetable stock',
  '',
].join('\n');

const ADD = 'Add my favourite recipes';
const CHANGE = 'Swap the pancakes for waffles, with butter';

/** The lines a diff adds and removes (its file headers left out), as the diff views list them. */
function changedLines(diff: string): string[] {
  return diff
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !line.startsWith('+++') && !line.startsWith('---'))
    .map((line) => (line.startsWith('+') ? `added: ${line}` : `removed: ${line}`));
}

/** The same, read from a diff view on the page. */
async function changedLinesShown(figure: Locator): Promise<string[]> {
  const lines = await figure.locator('code > span').allTextContents();
  return lines.filter((line) => /^(added|removed): /.test(line));
}

/**
 * The model's script. The rewrite is a call of its own (the rewrite tool's, before the approval):
 * it answers with the new Markdown. The agent's turns: a note made with create_note; a change found
 * by list_notes, then asked of rewrite_note.
 */
function cookReply(request: RecordedRequest) {
  if (systemText(request).trimStart().startsWith('You rewrite one Markdown note')) return { text: VERSION_2 };
  const said = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (said.includes(ADD)) {
    if (outputs.length === 0) {
      return {
        toolCalls: [{ name: 'create_note', arguments: { name: NOTE, content: VERSION_1, standing_instruction: INSTRUCTION } }],
      };
    }
    return { text: `I wrote the note “${NOTE}” with two recipes.` };
  }
  if (said.includes(CHANGE)) {
    if (outputs.length === 0) return { toolCalls: [{ name: 'list_notes', arguments: {} }] };
    if (outputs.length === 1) {
      return { toolCalls: [{ name: 'rewrite_note', arguments: { note_id: idIn(outputs, 'note_id'), request: CHANGE } }] };
    }
    return { text: 'The pancakes are waffles now.' };
  }
  return { text: 'I do not know that one.' };
}

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('projects');
  app.fake.setHandler(cookReply);
});
after(() => app?.close());

test(`Projects: a project, a note the agent writes, a change approved as a diff, its history (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'projects', { width: 1280, height: 720 }, walkThrough);
});

/** Both window sizes, the first in both themes; back at 1280×720 after. */
async function shoot(page: Page, name: string, what: string): Promise<void> {
  await assertFitsWindow(page, `${what} at 1280×720`);
  await screenshotBothThemes(page, `${name}-1280x720`);
  await page.setViewportSize({ width: 1440, height: 900 });
  await assertFitsWindow(page, `${what} at 1440×900`);
  await screenshotBothThemes(page, `${name}-1440x900`);
  await page.setViewportSize({ width: 1280, height: 720 });
}

interface ApiNote {
  note_id: string;
  name: string;
  version: number;
  content: string;
  standing_instruction: string;
}

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1];
  assert.ok(orgId, `an organization page: ${page.url()}`);

  // A new project, from the Projects page: it opens on its own page, with no notes yet.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  await page.getByRole('button', { name: 'New project' }).first().click();
  const form = page.getByRole('form', { name: 'New project' });
  await form.getByLabel('Name', { exact: true }).fill(PROJECT);
  await form.getByLabel('Description').fill('What we cook at home, and how');
  await form.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('heading', { level: 1, name: PROJECT }).waitFor();
  const projectId = /\/projects\/([^/?]+)/.exec(page.url())?.[1];
  assert.ok(projectId, `the project's page: ${page.url()}`);
  const notesPath = `/v0/orgs/${orgId}/projects/${projectId}/notes`;
  const notes = page.getByRole('navigation', { name: 'Notes' });
  await notes.getByText('No notes yet.').waitFor();

  // The agent writes a note, once approved: the list and the editor show it.
  const agent = agentPanel(page);
  await agent.panel
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });
  await agent.say(ADD);
  const createCard = agent.log.getByRole('region', { name: /create_note/ });
  await createCard.getByText('waiting for approval').waitFor();
  await createCard.getByRole('button', { name: 'Approve create_note', exact: true }).click();
  await createCard.getByText('done', { exact: true }).waitFor();
  await agent.log.getByText(`I wrote the note “${NOTE}” with two recipes.`).waitFor();
  await agent.idle.waitFor();

  await notes.getByRole('button', { name: new RegExp(`^${NOTE}`) }).waitFor();
  const editorRegion = page.getByRole('region', { name: 'Note editor' });
  const editor = editorRegion.getByRole('textbox', { name: 'Note text' });
  await editor.getByText('## Pancakes').waitFor();
  await editorRegion.getByRole('status').getByText('Version 1').waitFor();
  const { notes: listed } = await api<{ notes: ApiNote[] }>(page, 'GET', notesPath);
  assert.equal(listed.length, 1);
  const noteId = listed[0]?.note_id ?? '';
  const stored = await api<ApiNote>(page, 'GET', `${notesPath}/${noteId}`);
  assert.equal(stored.content, VERSION_1);
  assert.equal(stored.standing_instruction, INSTRUCTION);
  assert.equal(stored.version, 1);
  // The preview renders the Markdown.
  await editorRegion.getByRole('button', { name: 'Preview', exact: true }).click();
  await editorRegion.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Tomato soup' }).waitFor();
  await editorRegion.getByRole('button', { name: 'Edit', exact: true }).click();
  await editor.waitFor();
  await page.mouse.move(0, 0);
  await shoot(page, 'projects-note', 'the project page with a note open');

  // A change: the rewrite's model call runs before the approval, and its diff is in the card.
  await agent.say(CHANGE);
  const rewriteCard = agent.log.getByRole('region', { name: /rewrite_note/ });
  await rewriteCard.getByText('waiting for approval').waitFor();
  const proposed = agent.log.getByRole('figure', { name: `Proposed changes to ${NOTE}` });
  await proposed.waitFor();
  const expected = changedLines(unifiedDiff(VERSION_1, VERSION_2, { before: 'a', after: 'b' }).diff);
  assert.ok(expected.includes('removed: -## Pancakes') && expected.includes('added: +## Waffles'), expected.join('\n'));
  assert.deepEqual(await changedLinesShown(proposed), expected);
  // Nothing is written before the approval.
  assert.equal((await api<ApiNote>(page, 'GET', `${notesPath}/${noteId}`)).version, 1);
  // Typing in the note's editor (in a shadow root of its own) is typing, not the approval's shortcut (a).
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('a');
  await editorRegion.getByRole('status').getByText('Unsaved changes').waitFor();
  await page.keyboard.press('Backspace');
  await editorRegion.getByRole('status').getByText('Version 1').waitFor();
  await rewriteCard.getByText('waiting for approval').waitFor();
  assert.equal((await api<ApiNote>(page, 'GET', `${notesPath}/${noteId}`)).version, 1);
  await proposed.scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await shoot(page, 'projects-approval', 'the project page with a diff to approve');
  // The pinned approval, above the message box, opens the same diff.
  await agent.pinned.getByRole('button', { name: 'Show changes' }).click();
  const pinnedDiff = agent.pinned.getByRole('figure', { name: `Proposed changes to ${NOTE}` });
  await pinnedDiff.waitFor();
  assert.deepEqual(await changedLinesShown(pinnedDiff), expected);
  await page.mouse.move(0, 0);
  await shoot(page, 'projects-approval-pinned', 'the project page with the pinned diff open');
  await agent.pinned.getByRole('button', { name: 'Hide changes' }).click();

  await rewriteCard.getByRole('button', { name: 'Approve rewrite_note', exact: true }).click();
  await rewriteCard.getByText('done', { exact: true }).waitFor();
  await agent.log.getByText('The pancakes are waffles now.').waitFor();
  await agent.idle.waitFor();
  await untilStored(
    async () => {
      const note = await api<ApiNote>(page, 'GET', `${notesPath}/${noteId}`);
      return { version: note.version, content: note.content };
    },
    { version: 2, content: VERSION_2 },
    'the approved rewrite is saved as version 2',
  );
  await editor.getByText('## Waffles').waitFor();
  await editorRegion.getByRole('status').getByText('Version 2').waitFor();

  // The history: version 2, by the agent, and what it changed.
  await page.getByRole('group', { name: 'Note view' }).getByRole('button', { name: 'History', exact: true }).click();
  const history = page.getByRole('region', { name: 'Note history' });
  const versions = history.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await versions.nth(1).waitFor();
  assert.equal(await versions.count(), 2);
  await versions.first().getByText('v2').waitFor();
  await versions.first().getByText('agent', { exact: true }).waitFor();
  await history.getByRole('button', { name: 'Version 2: Changes' }).click();
  const changes = history.getByRole('figure', { name: 'Changes from version 1 to 2' });
  await changes.waitFor();
  assert.deepEqual(await changedLinesShown(changes), expected);
  await page.mouse.move(0, 0);
  await shoot(page, 'projects-history', 'the project page with the history open');

  // The Projects list counts the note.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects', exact: true }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: PROJECT, exact: true }) });
  await row.getByRole('cell', { name: '1', exact: true }).first().waitFor();
  await page.mouse.move(0, 0);
  await assertFitsWindow(page, 'the Projects page');
  await screenshotBothThemes(page, 'projects-list-1280x720');
  await screenshot(page, 'projects-list-1440x900', { width: 1440, height: 900 });
  await page.setViewportSize({ width: 1280, height: 720 });
}
