import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { envFor, type ServerProcess, startServer } from '../processes.ts';
import { ARTIFACTS, type BrowserProblems, launchBrowser, runScenario, signInFirstTime, textOf } from './browser.ts';

const NO_MODEL_MESSAGE =
  'No model is configured: set OPENAI_API_KEY (or another provider key) on the server, or configure a provider in Settings.';

let server: ServerProcess;
let browser: Browser;
let drop: () => Promise<void>;
const dir = mkdtempSync(join(tmpdir(), 'docagent-e2e-artifacts-'));

before(async () => {
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  drop = target.drop;
  // No provider key: the model picker must say how to configure one instead of failing.
  const env = envFor(target.target);
  for (const key of Object.keys(env)) {
    if (/_API_KEY$/.test(key)) delete env[key];
  }
  server = await startServer(env);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

const responseFormat = (properties: Record<string, unknown>) => JSON.stringify(strictResponseFormat(properties), null, 2);

const VERSION_1 = responseFormat({
  invoice_number: { type: 'string', description: 'As printed' },
  total: { type: 'number', description: 'The amount due' },
});
const VERSION_2 = responseFormat({
  invoice_number: { type: 'string', description: 'As printed' },
  total: { type: 'number', description: 'The amount due' },
  currency: { type: 'string', description: 'ISO 4217 code' },
});

async function openNav(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

function rowWith(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

/** Waits until a row's first cells read as expected (or gives up and lets the assertion tell). */
async function settledCells(row: Locator, expected: string[]): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const cells = (await row.getByRole('cell').allTextContents()).slice(0, expected.length);
    if (JSON.stringify(cells) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function acceptNextDialog(page: Page): void {
  page.once('dialog', (dialog) => void dialog.accept());
}

test(`tags, schemas and prompts are created, edited, versioned and deleted in the web app (${testDatabaseKind()})`, {
  timeout: 5 * 60_000,
}, async () => {
  await runScenario(browser, 'artifacts', { width: 1280, height: 900 }, walkThrough);
});

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  await signInFirstTime(page, server);
  const origin = new URL(page.url()).origin;
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const modelsResponse = await page.request.get(`${origin}/v0/orgs/${orgId}/llm/models?chat_only=false`);
  const hasModelsRoute = modelsResponse.status() !== 404;

  // A tag, created and then edited in place.
  await openNav(page, 'Tags');
  await page.getByText('No tags yet').waitFor();
  const newTag = page.getByRole('form', { name: 'New tag' });
  await newTag.getByLabel('Tag name').fill('invoices');
  await newTag.getByLabel('Tag description').fill('Supplier invoices');
  await newTag.getByRole('button', { name: 'Create tag' }).click();
  await rowWith(page, 'Supplier invoices').waitFor();
  await page.getByRole('button', { name: 'Edit tag invoices' }).click();
  const editTag = page.getByRole('form', { name: 'Edit tag invoices' });
  await editTag.getByLabel('Description').fill('Invoices from suppliers');
  await editTag.getByRole('button', { name: 'Save' }).click();
  await editTag.waitFor({ state: 'detached' });
  await rowWith(page, 'Invoices from suppliers').waitFor();

  // A new schema: the editor names what is wrong and refuses to save until it is fixed.
  await openNav(page, 'Schemas');
  await page.getByText('No schemas yet').waitFor();
  await page.getByRole('link', { name: 'New schema' }).click();
  await page.getByRole('heading', { level: 1, name: 'New schema' }).waitFor();
  const save = page.getByRole('button', { name: 'Save schema' });
  const json = page.getByLabel('Response format (JSON)');
  await page.getByLabel('Schema name').fill('Invoice fields');

  await json.fill('{"type": "json_schema",,}');
  const syntaxError = page.getByText(/Line 1, column 24: Expected a property name/);
  await syntaxError.waitFor();
  assert.ok(await save.isDisabled(), 'Save is disabled while the JSON cannot be read');

  await json.fill(responseFormat({ total: { type: 'float' } }));
  const schemaProblems = page.getByRole('list', { name: 'Schema problems' });
  await schemaProblems.getByText('json_schema.schema.properties.total.type', { exact: true }).waitFor();
  assert.match(await textOf(schemaProblems), /"float" is not a type; use number/);
  assert.ok(await save.isDisabled(), 'Save is disabled while the schema has problems');
  await page.screenshot({ path: join(ARTIFACTS, `schema-editor-problems-${testDatabaseKind()}.png`), fullPage: true });

  await json.fill(VERSION_1);
  await page.getByText('The schema is valid.').waitFor();
  await save.click();
  await page.getByRole('heading', { level: 1, name: 'Invoice fields' }).waitFor();
  await page.getByText('version 1', { exact: true }).waitFor();
  const schemaUrl = page.url();
  assert.match(schemaUrl, /\/schemas\/[^/]+$/, 'a saved schema has its own page');

  // Saving an edit adds version 2; version 1 stays readable.
  await json.fill(VERSION_2);
  await page.getByText('The schema is valid.').waitFor();
  await save.click();
  await page.getByText('Saved as version 2.').waitFor();
  await page.getByText('version 2', { exact: true }).waitFor();
  const versions = page.getByRole('navigation', { name: 'Versions' });
  await versions.getByRole('link', { name: 'Version 1' }).click();
  const version1 = page.getByRole('region', { name: 'Version 1' });
  await version1.waitFor();
  const version1Json = await textOf(version1.locator('pre'));
  assert.match(version1Json, /"total"/);
  assert.doesNotMatch(version1Json, /"currency"/, 'version 1 is shown as it was saved');
  assert.equal(await json.count(), 0, 'an older version cannot be edited');
  await page.screenshot({ path: join(ARTIFACTS, `schema-version-1-${testDatabaseKind()}.png`), fullPage: true });
  await page.getByRole('link', { name: 'Edit the current version' }).click();
  assert.match(await json.inputValue(), /"currency"/, 'the editor shows the current version');

  await openNav(page, 'Schemas');
  const schemaRow = rowWith(page, 'Invoice fields');
  // The list may first show what the cache held, then the refetched rows.
  await settledCells(schemaRow, ['Invoice fields', '2', '3']);
  assert.deepEqual(
    (await schemaRow.getByRole('cell').allTextContents()).slice(0, 3),
    ['Invoice fields', '2', '3'],
    'the list shows the current version and its field count',
  );

  // A prompt pinned to version 1 of the schema, with the tag and the organization's default model.
  // The organization may start with example prompts of its own.
  await openNav(page, 'Prompts');
  await page.getByRole('link', { name: 'New prompt' }).click();
  await page.getByRole('heading', { level: 1, name: 'New prompt' }).waitFor();
  await page.getByLabel('Prompt name').fill('Extract invoice');
  await page.getByLabel('Instructions').fill('Find the invoice number and the total.');
  await page.getByLabel('Schema', { exact: true }).selectOption({ label: 'Invoice fields' });
  await page.getByLabel('Schema version').selectOption({ label: 'Version 1' });
  const model = page.getByLabel('Model');
  if (hasModelsRoute) {
    const { models } = (await modelsResponse.json()) as { models: string[] };
    if (models.length === 0) await page.getByText(NO_MODEL_MESSAGE).waitFor();
  }
  assert.equal(await model.inputValue(), '', 'the model starts as the organization default');
  assert.equal(await textOf(model.locator('option:checked')), 'Organization default');
  await page.getByRole('checkbox', { name: 'invoices' }).check();
  await page.screenshot({ path: join(ARTIFACTS, `prompt-editor-${testDatabaseKind()}.png`), fullPage: true });
  await page.getByRole('button', { name: 'Save prompt' }).click();
  await page.getByRole('heading', { level: 1, name: 'Extract invoice' }).waitFor();
  await page.getByText('version 1', { exact: true }).waitFor();
  assert.equal(await page.getByLabel('Schema version').inputValue(), '1', 'the prompt keeps version 1 of the schema');
  // The prompt's own tags (the page's Run on documents panel has a tag choice of its own).
  const editor = page.getByRole('form', { name: 'Edit prompt Extract invoice' });
  assert.ok(await editor.getByRole('checkbox', { name: 'invoices' }).isChecked());

  await openNav(page, 'Prompts');
  const promptRow = rowWith(page, 'Extract invoice');
  await promptRow.getByText('Invoice fields, version 1').waitFor();
  await promptRow.getByText('invoices').waitFor();
  await promptRow.getByText('Organization default').waitFor();

  // A schema that a prompt uses cannot be deleted, and the page says which prompt uses it.
  await openNav(page, 'Schemas');
  acceptNextDialog(page);
  await page.getByRole('button', { name: 'Delete schema Invoice fields' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Could not delete the schema' });
  await refused.waitFor();
  assert.match(await textOf(refused), /Extract invoice/, 'the refusal names the prompt');
  await schemaRow.waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `schema-delete-refused-${testDatabaseKind()}.png`), fullPage: true });

  // Deleting the prompt first lets the schema and then the tag go.
  await openNav(page, 'Prompts');
  acceptNextDialog(page);
  await page.getByRole('button', { name: 'Delete prompt Extract invoice' }).click();
  await promptRow.waitFor({ state: 'detached' });

  await openNav(page, 'Schemas');
  acceptNextDialog(page);
  await page.getByRole('button', { name: 'Delete schema Invoice fields' }).click();
  await schemaRow.waitFor({ state: 'detached' });
  assert.equal(await refused.count(), 0, 'the refusal is gone once the schema is deleted');

  await openNav(page, 'Tags');
  acceptNextDialog(page);
  await page.getByRole('button', { name: 'Delete tag invoices' }).click();
  await page.getByText('No tags yet').waitFor();

  // The refused delete is the only failed request (with the models route, if this server lacks it).
  problems.allow(
    (problem) =>
      problem.kind === 'console' &&
      ((problem.url.includes('/schemas/') && /status of 409/.test(problem.text)) ||
        (!hasModelsRoute && problem.url.includes('/llm/models') && /status of 404/.test(problem.text))),
  );
}
