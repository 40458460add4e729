import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, type BrowserProblems, EXTRACTION_TIMEOUT_MS, runScenario, signInFirstTime, textOf } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { requestedSchema } from './responses-requests.ts';

const MODEL = 'openai:gpt-4.1-mini';
const INVOICE = { invoice_number: 'INV-2024-0042', total: 1250.5 };
const SUMMARY = { document_type: 'invoice', summary: 'An invoice from ACME.', key_facts: ['ACME', 'INV-2024-0042'] };
const UPSTREAM_FAILURE = 'the fake provider exploded';

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('extraction');
  // Each prompt gets the JSON its schema (or, for the default prompt, its instructions) asks for.
  app.fake.setHandler((request) => ({
    text: JSON.stringify(requestedSchema(request)?.properties?.invoice_number ? INVOICE : SUMMARY),
  }));
});

after(async () => {
  await app?.close();
});

test(`prompt results show on the document page, are corrected, verified and re-run (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'extraction', { width: 1400, height: 1000 }, walkThrough);
});

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  await signInFirstTime(page, app.server);
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
  assert.match(await summaryForm.getByLabel('key_facts', { exact: true }).inputValue(), /INV-2024-0042/);
  const schemaRequest = app.fake.requests.find((request) => requestedSchema(request)?.properties?.invoice_number);
  assert.ok(schemaRequest, 'the invoice prompt asked for structured output with its schema');
  await page.screenshot({ path: join(ARTIFACTS, `extraction-results-${testDatabaseKind()}.png`), fullPage: true });

  // A value that is not a number is refused before it is sent.
  await total.fill('a lot');
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
    await models.getByText(/API keys must be set as environment variables/).waitFor();
  }
  await page.screenshot({ path: join(ARTIFACTS, `settings-models-${testDatabaseKind()}.png`), fullPage: true });

  // The refused run is the only failed request.
  problems.allow(
    (problem) => problem.kind === 'console' && problem.url.includes('/llm/run/') && /status of 502/.test(problem.text),
  );
}
