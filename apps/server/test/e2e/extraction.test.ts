import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Locator, Page } from 'playwright-core';
import {
  ARTIFACTS,
  api,
  type BrowserProblems,
  EXTRACTION_TIMEOUT_MS,
  firstStartCredentials,
  NEW_PASSWORD,
  runScenario,
  signInFirstTime,
  textOf,
  waitForPrompts,
} from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { requestedSchema } from './responses-requests.ts';

const MODEL = 'openai:gpt-4.1-mini';
const INVOICE = { invoice_number: 'INV-2024-0042', total: 1250.5 };
const SUMMARY = { document_type: 'invoice', summary: 'An invoice from ACME.', key_facts: ['ACME', 'INV-2024-0042'] };
const DELIVERY = {
  note_number: 'DN-7',
  delivered_on: '2024-03-01',
  lines: [
    { product: 'Hex bolts M8', quantity: 200 },
    { product: 'Lock nuts M8', quantity: 150 },
  ],
};
const UPSTREAM_FAILURE = 'the fake provider exploded';

let app: FakeLlmApp;
/** The first scenario replaces the one-time password; a later one signs in with the new one. */
let passwordReplaced = false;

before(async () => {
  app = await startFakeLlmApp('extraction');
  // Each prompt gets the JSON its schema (or, for the default prompt, its instructions) asks for.
  app.fake.setHandler((request) => {
    const properties = requestedSchema(request)?.properties;
    return { text: JSON.stringify(properties?.lines ? DELIVERY : properties?.invoice_number ? INVOICE : SUMMARY) };
  });
});

after(async () => {
  await app?.close();
});

test(`prompt results show on the document page, are corrected, verified and re-run (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'extraction', { width: 1400, height: 1000 }, walkThrough);
});

async function signIn(page: Page): Promise<void> {
  if (!passwordReplaced) {
    await signInFirstTime(page, app.server);
    passwordReplaced = true;
    return;
  }
  await page.goto(firstStartCredentials(app.server).loginUrl);
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Documents' }).waitFor();
}

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  await signIn(page);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;

  // A tag, a schema and a prompt with both, through the API with the browser's session.
  const tag = await api<{ id: string }>(page, 'POST', `${org}/tags`, { name: 'invoices', description: 'Supplier invoices' });
  const schema = await api<{ schema_id: string }>(page, 'POST', `${org}/schemas`, {
    name: 'Invoice fields',
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'invoice',
        schema: {
          type: 'object',
          properties: { invoice_number: { type: 'string' }, total: { type: 'number' } },
          required: ['invoice_number', 'total'],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  });
  await api(page, 'POST', `${org}/prompts`, {
    name: 'Extract invoice',
    content: 'Find the invoice number and the total.',
    schema_id: schema.schema_id,
    schema_version: null,
    model: MODEL,
    tag_ids: [tag.id],
  });

  // A text document with the tag: its text is extracted, then both prompts run on it.
  const text = 'ACME Corp\nInvoice INV-2024-0042\nTotal due: 1,250.50 USD\n';
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'invoice.txt', content: Buffer.from(text).toString('base64'), tag_ids: [tag.id] }],
  });
  const documentId = documents[0]?.document_id;
  assert.ok(documentId, 'the upload stored the document');

  await page.goto(`${new URL(page.url()).origin}/orgs/${orgId}/documents/${documentId}`);
  await page.getByRole('heading', { level: 1, name: 'invoice.txt' }).waitFor();
  const panel = page.getByRole('region', { name: 'Extraction' });
  await panel.waitFor();
  const invoiceForm = panel.getByRole('form', { name: 'Extract invoice result' });
  const summaryForm = panel.getByRole('form', { name: 'Document Summary result' });
  await invoiceForm.waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  await summaryForm.waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  const invoiceCard = panel.getByRole('region', { name: /^Extract invoice/ });
  assert.match(await textOf(invoiceCard), /openai:gpt-4\.1-mini/, 'the card names the model');
  const total = invoiceForm.getByLabel('total', { exact: true });
  assert.equal(await invoiceForm.getByLabel('invoice_number', { exact: true }).inputValue(), INVOICE.invoice_number);
  assert.equal(await total.inputValue(), String(INVOICE.total));
  assert.equal(await summaryForm.getByLabel('document_type', { exact: true }).inputValue(), SUMMARY.document_type);
  assert.equal(await summaryForm.getByLabel('key_facts item 2', { exact: true }).inputValue(), 'INV-2024-0042');
  const schemaRequest = app.fake.requests.find((request) => requestedSchema(request)?.properties?.invoice_number);
  assert.ok(schemaRequest, 'the invoice prompt asked for structured output with its schema');
  await page.screenshot({ path: join(ARTIFACTS, `extraction-results-${testDatabaseKind()}.png`), fullPage: true });

  // A number left empty is refused before it is sent.
  assert.equal(await total.getAttribute('type'), 'number');
  await total.fill('');
  await invoiceForm.getByRole('button', { name: 'Save' }).click();
  await invoiceForm.getByText('Enter a number').waitFor();

  // A correction is saved and marked as edited; then the result is verified.
  const edited = invoiceCard.getByText('edited', { exact: true });
  assert.equal(await edited.count(), 0, 'a fresh result is not edited');
  await total.fill('99.5');
  await invoiceForm.getByRole('button', { name: 'Save' }).click();
  await edited.waitFor();
  const verified = invoiceForm.getByRole('checkbox', { name: 'Verified' });
  assert.equal(await verified.isChecked(), false);
  await verified.check();
  await invoiceCard.getByText('verified', { exact: true }).waitFor();

  // Both persist.
  await page.reload();
  await invoiceForm.waitFor();
  assert.equal(await total.inputValue(), '99.5');
  await edited.waitFor();
  assert.equal(await verified.isChecked(), true);

  // A failing provider: the run's error says what went wrong, and the stored result stays.
  app.fake.enqueue({ kind: 'error', status: 500, message: UPSTREAM_FAILURE });
  const rerun = invoiceCard.getByRole('button', { name: 'Re-run Extract invoice' });
  await rerun.click();
  const runError = invoiceCard.getByRole('alert').filter({ hasText: 'Could not run Extract invoice' });
  await runError.waitFor();
  assert.match(await textOf(runError), new RegExp(UPSTREAM_FAILURE));
  assert.equal(await total.inputValue(), '99.5');
  await page.screenshot({ path: join(ARTIFACTS, `extraction-rerun-failed-${testDatabaseKind()}.png`), fullPage: true });

  // Running again replaces the result with the model's fresh answer.
  await rerun.click();
  await runError.waitFor({ state: 'detached' });
  await edited.waitFor({ state: 'detached' });
  assert.equal(await total.inputValue(), String(INVOICE.total));
  assert.equal(await verified.isChecked(), false, 'a fresh answer is not verified');

  // Settings → Models: OpenAI is configured from the environment.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
  const models = page.getByRole('region', { name: 'Models' });
  const openai = models.getByRole('table', { name: 'Providers' }).getByRole('row').filter({ hasText: 'OpenAI' }).first();
  await openai.waitFor();
  const cells = await openai.textContent();
  assert.match(cells ?? '', /Configured/);
  assert.match(cells ?? '', /Environment/);
  assert.match(cells ?? '', /OPENAI_API_KEY/);
  // The embedded database keeps a secret in its data directory; a server without one says keys need the environment.
  const { can_store_keys } = await api<{ can_store_keys: boolean }>(page, 'GET', `${org}/llm/settings`);
  if (can_store_keys) {
    await models.getByText('OpenAI: key and endpoint', { exact: true }).click();
    const key = models.getByRole('form', { name: 'OpenAI provider' }).getByLabel('API key');
    assert.equal(await key.getAttribute('type'), 'password');
    assert.equal(await key.inputValue(), '', 'no key is shown back');
  } else {
    await models
      .getByRole('note')
      .getByText(/Without DOCAGENT_SECRET on the server, set keys as its environment variables/)
      .waitFor();
  }
  await page.screenshot({ path: join(ARTIFACTS, `settings-models-${testDatabaseKind()}.png`), fullPage: true });

  // The refused run is the only failed request.
  problems.allow(
    (problem) => problem.kind === 'console' && problem.url.includes('/llm/run/') && /status of 502/.test(problem.text),
  );
}

test(`a schema built with the field builder, and its list of objects shown as a table in the result (${testDatabaseKind()})`, {
  timeout: 5 * 60_000,
}, async () => {
  await runScenario(app.browser, 'schema-builder', { width: 1280, height: 720 }, buildAndExtract);
});

const screenshotSizes = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
];

/** Full-page screenshots at each of the sizes, `shown` scrolled into view (panels scroll on their own); back at the first size after. */
async function screenshotAtSizes(page: Page, name: string, shown: Locator): Promise<void> {
  for (const size of screenshotSizes) {
    await page.setViewportSize(size);
    await shown.scrollIntoViewIfNeeded();
    const file = `${name}-${size.width}x${size.height}-${testDatabaseKind()}.png`;
    await page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });
  }
  await page.setViewportSize(screenshotSizes[0] as { width: number; height: number });
}

async function buildAndExtract(page: Page): Promise<void> {
  await signIn(page);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const origin = new URL(page.url()).origin;

  // The starter schema's fields are removed and new ones built: a text, a date and a list of objects.
  await page.goto(`${origin}/orgs/${orgId}/schemas/new`);
  await page.getByRole('heading', { level: 1, name: 'New schema' }).waitFor();
  await page.getByLabel('Schema name').fill('Delivery note');
  const builder = page.getByRole('region', { name: 'Fields' });
  const json = page.getByLabel('Response format (JSON)');
  for (const name of ['invoice_number', 'invoice_date', 'total']) {
    await builder.getByRole('button', { name: `Delete ${name}` }).click();
  }
  await builder.getByText('No fields yet.').waitFor();
  const addField = builder.getByRole('button', { name: 'Add a field' });
  // A new field's name is focused and selected: typing names it.
  await addField.click();
  await page.keyboard.type('note_number');
  await builder.getByRole('group', { name: 'Field note_number' }).getByLabel('Description').fill('As printed at the top');
  await addField.click();
  await page.keyboard.type('delivered_on');
  const date = builder.getByRole('group', { name: 'Field delivered_on' });
  await date.getByLabel('Type').selectOption('date');
  await addField.click();
  await page.keyboard.type('lines');
  const lines = builder.getByRole('group', { name: 'Field lines' });
  await lines.getByLabel('Type').first().selectOption('object-list');
  await lines.getByRole('group', { name: 'Field field_1' }).getByLabel('Name').fill('product');
  await lines.getByRole('button', { name: 'Add a sub-field of lines' }).click();
  await page.keyboard.type('quantity');
  await lines.getByRole('group', { name: 'Field quantity' }).getByLabel('Type').selectOption('number');

  // Reordered with the keyboard: the focus follows the moved field.
  await builder.getByRole('button', { name: 'Move delivered_on up' }).focus();
  await page.keyboard.press('Enter');
  await builder.getByRole('button', { name: 'Move delivered_on down' }).and(page.locator(':focus')).waitFor();
  await date.getByRole('checkbox', { name: /Required/ }).uncheck();

  const expected = {
    type: 'object',
    properties: {
      delivered_on: { type: ['string', 'null'], format: 'date' },
      note_number: { type: 'string', description: 'As printed at the top' },
      lines: {
        type: 'array',
        items: {
          type: 'object',
          properties: { product: { type: 'string' }, quantity: { type: 'number' } },
          required: ['product', 'quantity'],
          additionalProperties: false,
        },
      },
    },
    required: ['delivered_on', 'note_number', 'lines'],
    additionalProperties: false,
  };
  const schemaOfText = async () =>
    (JSON.parse(await json.inputValue()) as { json_schema: { schema: unknown } }).json_schema.schema;
  assert.deepEqual(await schemaOfText(), expected, 'the JSON follows the builder');
  await page.getByText('The schema is valid.').waitFor();
  await screenshotAtSizes(page, 'schema-builder', builder);

  // Broken JSON is kept as typed while the builder waits; fixed, the builder follows it.
  const text = await json.inputValue();
  await json.fill(`${text},`);
  await builder.getByText(/^Waiting for valid JSON/).waitFor();
  assert.equal(await json.inputValue(), `${text},`);
  await json.fill(text.replace('"As printed at the top"', '"The note number, as printed"'));
  assert.equal(
    await builder.getByRole('group', { name: 'Field note_number' }).getByLabel('Description').inputValue(),
    'The note number, as printed',
  );
  await page.getByText('The schema is valid.').waitFor();
  await page.getByRole('button', { name: 'Save schema' }).click();
  await page.getByRole('heading', { level: 1, name: 'Delivery note' }).waitFor();
  const schemaId = /\/schemas\/([^/?]+)/.exec(page.url())?.[1];
  assert.ok(schemaId, `a saved schema has its own page: ${page.url()}`);

  // A prompt with the schema runs on a tagged document; its lines show as a table.
  const tag = await api<{ id: string }>(page, 'POST', `${org}/tags`, { name: 'deliveries' });
  const prompt = await api<{ prompt_revid: string }>(page, 'POST', `${org}/prompts`, {
    name: 'Read delivery note',
    content: 'Read the delivery note.',
    schema_id: schemaId,
    schema_version: null,
    model: MODEL,
    tag_ids: [tag.id],
  });
  const content = Buffer.from('Delivery note DN-7, 1 March 2024\n200 Hex bolts M8\n150 Lock nuts M8\n').toString('base64');
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'delivery.txt', content, tag_ids: [tag.id] }],
  });
  const documentId = documents[0]?.document_id;
  assert.ok(documentId, 'the upload stored the document');
  await waitForPrompts(page, `${org}/documents/${documentId}`);
  await page.goto(`${origin}/orgs/${orgId}/documents/${documentId}`);
  const form = page.getByRole('form', { name: 'Read delivery note result' });
  await form.waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  const table = form.getByRole('table', { name: 'lines' });
  assert.deepEqual(await table.getByRole('columnheader').allTextContents(), ['product', 'quantity', 'Remove']);
  assert.equal(await table.getByLabel('product, row 2').inputValue(), 'Lock nuts M8');
  assert.equal(await table.getByLabel('quantity, row 1').getAttribute('type'), 'number');
  const delivered = form.getByLabel('delivered_on', { exact: true });
  assert.equal(await delivered.getAttribute('type'), 'date');
  assert.equal(await delivered.inputValue(), DELIVERY.delivered_on);
  await screenshotAtSizes(page, 'extraction-table', table);

  // A cell edited and a row added are saved in the result's own shape.
  await table.getByLabel('quantity, row 2').fill('160');
  await form.getByRole('button', { name: 'Add a row to lines' }).click();
  await table.getByLabel('product, row 3').fill('Washers M8');
  await table.getByLabel('quantity, row 3').fill('50');
  await form.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('region', { name: /^Read delivery note/ })
    .getByText('edited', { exact: true })
    .waitFor();
  const saved = await api<{ updated_llm_result: unknown }>(
    page,
    'GET',
    `${org}/llm/result/${documentId}?prompt_revid=${prompt.prompt_revid}`,
  );
  assert.deepEqual(saved.updated_llm_result, {
    ...DELIVERY,
    lines: [...DELIVERY.lines.slice(0, 1), { product: 'Lock nuts M8', quantity: 160 }, { product: 'Washers M8', quantity: 50 }],
  });
}
