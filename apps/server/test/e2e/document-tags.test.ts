import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, type BrowserProblems, runScenario, signInFirstTime, untilStored, waitForPrompts } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';

/**
 * Tags are how a prompt reaches the next document: they are edited on the document page, and
 * several documents at once get tags, a prompt run, an export or a deletion from the list.
 */

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('document-tags');
  app.fake.setHandler(() => ({ text: JSON.stringify({ summary: 'A note.', document_type: 'note', key_facts: [] }) }));
});

after(async () => {
  await app?.close();
});

test(`tags are edited on the document page; bulk actions tag, run a prompt, export and delete (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'document-tags', { width: 1440, height: 900 }, walkThrough);
});

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });

async function walkThrough(page: Page, _problems: BrowserProblems): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const origin = new URL(page.url()).origin;
  const invoices = await api<{ id: string }>(page, 'POST', `${org}/tags`, { name: 'invoices', color: '#0a7f5a' });
  await api(page, 'POST', `${org}/tags`, { name: 'receipts', color: '#b45309' });
  const names = ['a.txt', 'b.txt', 'c.txt'];
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: names.map((name) => ({ name, content: Buffer.from(`Note ${name}\n`).toString('base64') })),
  });
  for (const d of documents) await waitForPrompts(page, `${org}/documents/${d.document_id}`);
  const tagsOf = async (id: string) =>
    (await api<{ tag_ids: string[] }>(page, 'GET', `${org}/documents/${id}?include_content=false`)).tag_ids;

  // On the document page: the tags are chosen in place and saved at once.
  const first = documents[0]?.document_id ?? '';
  await page.goto(`${origin}/orgs/${orgId}/documents/${first}`);
  await page.getByRole('heading', { level: 1, name: 'a.txt' }).waitFor();
  // The details are folded to one line, so that the panels get the room.
  const details = page.locator('summary', { hasText: 'Details' });
  if (await details.count()) await details.click();
  await page.getByRole('button', { name: 'Edit tags' }).click();
  await page.getByRole('checkbox', { name: 'invoices' }).check();
  await page.getByRole('button', { name: 'Filter by tag invoices' }).waitFor();
  await untilStored(() => tagsOf(first), [invoices.id], 'the tag chosen on the page');
  await page.screenshot({ path: join(ARTIFACTS, `document-tags-details-${testDatabaseKind()}.png`) });
  await page.getByRole('checkbox', { name: 'invoices' }).uncheck();
  await page.getByRole('button', { name: 'Filter by tag invoices' }).waitFor({ state: 'detached' });
  await untilStored(() => tagsOf(first), [], 'the tag taken off on the page');

  // In the list: choose two documents and tag them together.
  await page.goto(`${origin}/orgs/${orgId}/documents`);
  for (const name of names) await rowOf(page, name).waitFor();
  await page.getByRole('checkbox', { name: 'Choose a.txt' }).check();
  await page.getByRole('checkbox', { name: 'Choose b.txt' }).check();
  const bar = page.getByRole('toolbar', { name: 'Actions on the chosen documents' });
  await bar.getByText('2 chosen').waitFor();
  await bar.getByLabel('Add a tag to the chosen documents').selectOption({ label: 'invoices' });
  await bar.getByText('Tagged 2 documents.').waitFor();
  await rowOf(page, 'b.txt').getByRole('button', { name: 'Filter by tag invoices' }).waitFor();
  assert.equal(await rowOf(page, 'c.txt').getByRole('button', { name: 'Filter by tag invoices' }).count(), 0);
  await page.screenshot({ path: join(ARTIFACTS, `document-tags-bulk-${testDatabaseKind()}.png`) });

  // A prompt runs on both as a batch on the server, its progress in the bar.
  const before = app.fake.requests.length;
  await bar.getByLabel('Run a prompt on the chosen documents').selectOption({ label: 'Document Summary' });
  const run = bar.getByRole('list', { name: 'Prompt run on the chosen documents' });
  await run.getByText('2 chosen documents').waitFor();
  await run.getByText('2 of 2 done · 2 succeeded · 0 failed').waitFor();
  await run.getByText('finished').waitFor();
  assert.equal(app.fake.requests.length - before, 2, 'one model call per chosen document');
  await page.screenshot({ path: join(ARTIFACTS, `document-tags-bulk-run-${testDatabaseKind()}.png`) });

  // The export is a JSON file of the chosen documents and their results.
  const download = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Export' }).click();
  const file = await (await download).path();
  const exported = JSON.parse(readFileSync(file, 'utf8')) as { documents: Array<{ document_name: string; results: unknown[] }> };
  assert.deepEqual(exported.documents.map((d) => d.document_name).sort(), ['a.txt', 'b.txt']);
  assert.ok(
    exported.documents.every((d) => d.results.length > 0),
    'each with its extraction results',
  );

  // Untag, then delete both after confirming.
  await bar.getByLabel('Remove a tag from the chosen documents').selectOption({ label: 'invoices' });
  await bar.getByText('Untagged 2 documents.').waitFor();
  assert.deepEqual(await tagsOf(first), []);
  page.once('dialog', (dialog) => void dialog.accept());
  await bar.getByRole('button', { name: 'Delete' }).click();
  await rowOf(page, 'a.txt').waitFor({ state: 'detached' });
  await rowOf(page, 'b.txt').waitFor({ state: 'detached' });
  await rowOf(page, 'c.txt').waitFor();
  assert.equal(await bar.count(), 0, 'nothing is chosen any more');
}
