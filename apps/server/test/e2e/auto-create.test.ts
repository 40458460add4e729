import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { buildSampleCorpus } from '@docagent/core/sample-corpus';
import { testDatabaseKind } from '@docagent/core/testing';
import type { FakeReply, RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, EXTRACTION_TIMEOUT_MS, runScenario, signInFirstTime, textOf } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { idIn, lastUserText, outputsOfTurn, requestedSchema } from './responses-requests.ts';
import { agentPanel } from './workspace-checks.ts';

/**
 * Issue 7's scenario: an upload with auto-create on, the headless agent's proposal reviewed in the
 * agent panel, one field refined through chat, then accepted; the documents table's status and filter.
 */

/** The fixed instruction the headless run starts with (seed 000 section 4.2). */
const AUTO_CREATE_INSTRUCTION = 'Analyze this document. Create a schema';
const CHANGE_TOTAL = 'Please set the total to 1300';
const PROPOSED_TEXT = 'I set up extraction for this invoice.';
const CHANGED_TEXT = 'The total is 1300 now.';
const INVOICE_VALUES = { invoice_number: 'INV-2024-0042', total: 1250.5 };
const SCHEMA_NAME = 'Invoice';
const PROMPT_NAME = 'Invoice fields';

let app: FakeLlmApp;
let invoicePath = '';
let receiptPath = '';

const invoiceSchema = strictResponseFormat({
  invoice_number: { type: 'string', description: 'As printed' },
  total: { type: 'number', description: 'Amount due' },
});

/**
 * The headless run: schema, prompt, extraction, then its summary; no refinement round. A run may
 * create only under new names (not version a schema another run made), so the receipt's run, like
 * a model told so, names its own after its document.
 */
function headlessReply(outputs: string[], documentName: string): FakeReply {
  const suffix = documentName === 'invoice.pdf' ? '' : ` (${documentName})`;
  switch (outputs.length) {
    case 0:
      // With the schema, a write the run was not declared to make (renaming its document): denied.
      return {
        toolCalls: [
          { name: 'create_schema', arguments: { name: `${SCHEMA_NAME}${suffix}`, response_format: invoiceSchema } },
          { name: 'update_document', arguments: { document_name: 'renamed by the agent.pdf' } },
        ],
      };
    case 2:
      return {
        toolCalls: [
          {
            name: 'create_prompt',
            arguments: {
              name: `${PROMPT_NAME}${suffix}`,
              content: 'Extract the invoice number and the total due.',
              schema_id: idIn(outputs, 'schema_id'),
            },
          },
        ],
      };
    case 3:
      return { toolCalls: [{ name: 'run_extraction', arguments: {} }] };
    default:
      return { text: PROPOSED_TEXT };
  }
}

/** The refine conversation: one field corrected, under the person's approval. */
function refineReply(outputs: string[]): FakeReply {
  if (outputs.length === 0)
    return { toolCalls: [{ name: 'update_extraction_field', arguments: { path: 'total', value: 1300 } }] };
  return { text: CHANGED_TEXT };
}

async function handle(request: RecordedRequest): Promise<FakeReply> {
  if (!request.body?.tools) {
    // Extractions: the invoice schema's fields, or the default prompt's summary after the upload.
    const schema = JSON.stringify(requestedSchema(request) ?? {});
    return { text: JSON.stringify(schema.includes('invoice_number') ? INVOICE_VALUES : { summary: 'An invoice.' }) };
  }
  const asked = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (asked.includes(AUTO_CREATE_INSTRUCTION)) {
    return headlessReply(outputs, /Current document: \\"([^"\\]+)\\"/.exec(JSON.stringify(request.body))?.[1] ?? '');
  }
  if (asked.includes(CHANGE_TOTAL)) return refineReply(outputs);
  return { text: 'I do not know that one.' };
}

before(async () => {
  app = await startFakeLlmApp('auto-create');
  app.fake.setHandler(handle);
  const samples = await buildSampleCorpus(join(app.dir, 'corpus'));
  invoicePath = samples.find((sample) => sample.name === 'invoice.pdf')?.path ?? '';
  receiptPath = samples.find((sample) => sample.name === 'receipt.pdf')?.path ?? '';
  assert.ok(invoicePath && receiptPath, 'the sample corpus has the invoice and the receipt');
});

after(async () => {
  await app?.close();
});

interface Doc {
  id: string;
  document_name: string;
  state: string;
  auto_create_status?: string;
  auto_create_error?: string;
  auto_create_prompt_revid?: string;
}

/** Waits (by the API) until the document's auto-create has left pending and running. */
async function waitForAutoCreate(page: Page, documentPath: string): Promise<Doc> {
  const deadline = Date.now() + EXTRACTION_TIMEOUT_MS;
  for (;;) {
    const doc = await api<Doc>(page, 'GET', `${documentPath}?include_content=false`);
    if (doc.auto_create_status !== 'pending' && doc.auto_create_status !== 'running') return doc;
    assert.ok(!doc.state.endsWith('_failed'), `the document's processing failed: ${doc.state}`);
    assert.ok(Date.now() < deadline, `auto-create is still ${doc.auto_create_status} (document ${doc.state})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test(`auto-create on upload: the proposal, refined in chat and accepted (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'auto-create', { width: 1280, height: 800 }, scenario);
});

async function scenario(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;

  // The checkbox starts from the organization's default (off), and the person turns it on.
  const autoCreate = page.getByRole('checkbox', { name: 'Auto-create schema & prompt' });
  await autoCreate.and(page.locator(':enabled')).waitFor();
  assert.equal(await autoCreate.isChecked(), false, "the organization's default is off");
  await autoCreate.check();
  await page.getByLabel('Upload documents').setInputFiles(invoicePath);
  await page.getByRole('region', { name: 'Uploads' }).getByRole('listitem', { name: 'invoice.pdf' }).getByText('Done').waitFor();
  const { documents } = await api<{ documents: Doc[] }>(page, 'GET', `${org}/documents`);
  const uploaded = documents.find((document) => document.document_name === 'invoice.pdf');
  assert.ok(uploaded, `the upload is listed: ${JSON.stringify(documents)}`);
  assert.ok(uploaded.auto_create_status, 'the multipart upload asked for auto-create');
  const documentPath = `${org}/documents/${uploaded.id}`;
  const proposed = await waitForAutoCreate(page, documentPath);
  assert.equal(proposed.auto_create_status, 'proposed', proposed.auto_create_error);

  // The table shows the status (it polled while the agent worked) and filters by it.
  const table = page.getByRole('region', { name: 'Documents' });
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'invoice.pdf', exact: true }) });
  await row.getByText('Needs review').waitFor();
  const filter = table.getByRole('combobox', { name: 'Auto-create' });
  await filter.selectOption({ label: 'Accepted' });
  await table.getByText('No matching documents').waitFor();
  await filter.selectOption({ label: 'Needs review' });
  await row.getByText('Needs review').waitFor();
  assert.match(page.url(), /auto_create=proposed/, 'the filter is kept in the URL');
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-table-${testDatabaseKind()}.png`) });

  // The prompts list marks the proposal as awaiting review.
  await page.getByRole('link', { name: 'Prompts', exact: true }).click();
  const promptRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: PROMPT_NAME, exact: true }) });
  await promptRow.getByText('auto-created, pending review').waitFor();

  // The document page: the banner with the summary and the proposed values, and the result on the left.
  await page.getByRole('link', { name: 'Documents', exact: true }).click();
  await table.getByRole('link', { name: 'invoice.pdf', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'invoice.pdf' }).waitFor();
  const agent = page.getByRole('region', { name: 'Agent panel' });
  const banner = agent.getByRole('region', { name: 'Auto-create proposal' });
  await banner.getByRole('link', { name: PROMPT_NAME, exact: true }).waitFor();
  await banner.getByRole('link', { name: SCHEMA_NAME, exact: true }).waitFor();
  assert.match(
    await textOf(banner),
    new RegExp(`I created schema ${SCHEMA_NAME} and prompt ${PROMPT_NAME}; here is what I extracted`),
  );
  await banner.getByText(INVOICE_VALUES.invoice_number).waitFor();
  const sidePanel = page.getByRole('region', { name: 'Side panel' });
  await sidePanel.getByText(PROMPT_NAME).first().waitFor();
  await sidePanel.locator(`input[value="${INVOICE_VALUES.invoice_number}"]`).first().waitFor();
  const proposalCard = sidePanel.getByRole('region', { name: new RegExp(`^${PROMPT_NAME}`) });
  await proposalCard.getByText('auto-created, pending review').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-proposal-${testDatabaseKind()}.png`) });

  // The headless run's log, read-only: its instruction and its calls, nothing to approve.
  await agent.getByRole('button', { name: "View the agent's log" }).click();
  const runLog = agent.getByRole('log', { name: 'Auto-create log' });
  await runLog.getByText(AUTO_CREATE_INSTRUCTION, { exact: false }).waitFor();
  await runLog
    .getByRole('region', { name: /create_schema/ })
    .getByText('done', { exact: true })
    .waitFor();
  const denied = runLog.getByRole('region', { name: /update_document/ });
  await denied.getByText('not allowed', { exact: true }).waitFor();
  await denied.getByText(/Not allowed: .*update_document is not one of them/).waitFor();
  await denied.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-log-denied-${testDatabaseKind()}.png`) });
  await runLog.getByText(PROPOSED_TEXT).waitFor();
  assert.equal(await runLog.getByRole('button', { name: /^Approve/ }).count(), 0, 'the log asks for no approval');
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-log-${testDatabaseKind()}.png`) });
  await agent.getByRole('button', { name: "Hide the agent's log" }).click();
  await runLog.waitFor({ state: 'detached' });

  // Refine: a conversation that goes on from the proposal, where the person has one field changed.
  await agent
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });
  await banner.getByRole('button', { name: 'Refine in chat' }).click();
  const log = agent.getByRole('log', { name: 'Conversation' });
  await log.getByText(PROPOSED_TEXT).waitFor();
  // The current extraction is a drawer the panel's row of controls opens.
  const extraction = agent.getByRole('region', { name: 'Current extraction' });
  await agentPanel(page).extractionToggle.click();
  await extraction.getByText(INVOICE_VALUES.invoice_number).waitFor();
  const message = agent.getByRole('textbox', { name: 'Message' });
  await message.fill(CHANGE_TOTAL);
  await message.press('Enter');
  const card = log.getByRole('region', { name: /update_extraction_field/ });
  await card.getByText('waiting for approval').waitFor();
  await card.getByRole('button', { name: 'Approve update_extraction_field', exact: true }).click();
  await log.getByText(CHANGED_TEXT).waitFor();
  await card.getByText('done', { exact: true }).waitFor();
  await extraction.getByText('1300', { exact: true }).waitFor();
  await banner.getByText('1300', { exact: true }).waitFor();
  const refineRequest = app.fake.requests.findLast((request) => lastUserText(request).includes(CHANGE_TOTAL));
  assert.ok(refineRequest, 'the provider received the refinement');
  assert.ok(
    JSON.stringify(refineRequest.body).includes(proposed.auto_create_prompt_revid ?? '?'),
    'the conversation starts from the proposal',
  );
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-refined-${testDatabaseKind()}.png`) });

  // Accept: the banner says so, and the prompt is no longer awaiting review.
  await banner.getByRole('button', { name: 'Accept' }).click();
  await agent.getByText('Auto-create proposal accepted').waitFor();
  await banner.waitFor({ state: 'detached' });
  await proposalCard.getByText('auto-created, pending review').waitFor({ state: 'detached' });
  const accepted = await api<Doc>(page, 'GET', `${documentPath}?include_content=false`);
  assert.equal(accepted.auto_create_status, 'accepted');
  const { prompts } = await api<{ prompts: { name: string; auto_create_pending_review: boolean }[] }>(
    page,
    'GET',
    `${org}/prompts?name_search=${encodeURIComponent(PROMPT_NAME)}`,
  );
  const prompt = prompts.find((candidate) => candidate.name === PROMPT_NAME);
  assert.ok(prompt, `the prompt stays: ${JSON.stringify(prompts)}`);
  assert.equal(prompt.auto_create_pending_review, false, 'the accepted prompt is a normal prompt');
  const { results } = await api<{ results: { prompt_display_name: string; updated_llm_result: { total?: number } }[] }>(
    page,
    'GET',
    `${org}/llm/results/${uploaded.id}`,
  );
  const kept = results.find((result) => result.prompt_display_name === PROMPT_NAME);
  assert.equal(kept?.updated_llm_result.total, 1300, 'the refined value is kept');
  await page.screenshot({ path: join(ARTIFACTS, `auto-create-accepted-${testDatabaseKind()}.png`) });

  // Settings → Models: the admin turns auto-create on by default and picks its model; uploads then start checked.
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Auto-create' }).click();
  const settings = page.getByRole('form', { name: 'Auto-create' });
  const model = settings.getByRole('combobox', { name: 'Auto-create model' });
  await model.locator('option[value="openai:gpt-4.1-mini"]').waitFor({ state: 'attached' });
  await settings.getByRole('checkbox', { name: 'Auto-create schema & prompt by default on upload' }).check();
  await model.selectOption('openai:gpt-4.1-mini');
  await settings.getByRole('button', { name: 'Save auto-create settings' }).click();
  await settings.getByText('Saved.').waitFor();
  const saved = await api<{ auto_create_default: boolean; auto_create_model: string | null }>(page, 'GET', `${org}/llm/settings`);
  assert.deepEqual(
    { default: saved.auto_create_default, model: saved.auto_create_model },
    { default: true, model: 'openai:gpt-4.1-mini' },
  );
  await page.getByRole('link', { name: 'Documents', exact: true }).click();
  await autoCreate.and(page.locator(':checked')).waitFor();

  // A second proposal, asked for by the new default, is rejected: what it created is gone.
  await page.getByLabel('Upload documents').setInputFiles(receiptPath);
  await page.getByRole('region', { name: 'Uploads' }).getByRole('listitem', { name: 'receipt.pdf' }).getByText('Done').waitFor();
  await table.getByRole('link', { name: 'receipt.pdf', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'receipt.pdf' }).waitFor();
  await banner.getByRole('button', { name: 'Reject' }).waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  // Reviewed before rejected: the side panel's form has read the proposal's schema. Rejected while
  // it still reads, the schema is gone under it and the browser logs the 404 the read gets.
  await sidePanel.locator(`input[value="${INVOICE_VALUES.invoice_number}"]`).first().waitFor();
  page.once('dialog', (dialog) => void dialog.accept());
  await banner.getByRole('button', { name: 'Reject' }).click();
  await agent.getByText('Auto-create proposal rejected').waitFor();
  const receiptId = /\/documents\/([^/?]+)/.exec(page.url())?.[1] ?? '';
  const rejected = await api<Doc>(page, 'GET', `${org}/documents/${receiptId}?include_content=false`);
  assert.equal(rejected.auto_create_status, 'rejected');
  const afterReject = await api<{ prompts: { auto_create_pending_review: boolean }[] }>(page, 'GET', `${org}/prompts`);
  assert.ok(
    afterReject.prompts.every((candidate) => !candidate.auto_create_pending_review),
    'no proposal awaits review',
  );

  // A rejected proposal is not the end: the run can be asked for again, and proposes anew.
  await agent.getByRole('button', { name: 'Run auto-create again' }).click();
  await banner.getByRole('button', { name: 'Reject' }).waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  const proposedAgain = await api<Doc>(page, 'GET', `${org}/documents/${receiptId}?include_content=false`);
  assert.equal(proposedAgain.auto_create_status, 'proposed');
}
