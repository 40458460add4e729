import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { buildSampleCorpus } from '@docagent/core/sample-corpus';
import { testDatabaseKind } from '@docagent/core/testing';
import { type FakeReply, heldReply, type RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { ARTIFACTS, api, fontsLoaded, runScenario, signInFirstTime, textOf, waitForPrompts, within } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { idIn, lastUserText, outputsOfTurn, requestedSchema, systemText } from './responses-requests.ts';
import { agentPanel } from './workspace-checks.ts';

/**
 * Issue 6's scenario: the document page's three panels and the agent panel, driven as a person
 * would, with the fake provider scripted as the model.
 */

const SET_UP = 'Set up extraction for this invoice';
const TAKE_YOUR_TIME = 'Take your time with this one';
const MENTION_QUESTION = 'which fields does it have?';
const STILL_THERE = 'Are you still there?';
const STILL_HERE = 'Still here, after a dropped connection.';
const INVOICE_VALUES = { invoice_number: 'INV-2024-0042', total: 1250.5 };
const DRAFT_NAME = 'Invoice draft';
const SCHEMA_NAME = 'Invoice';
const PROMPT_NAME = 'Invoice fields';

let app: FakeLlmApp;
let invoicePath = '';
/** The model call of the turn the test stops: answered only once the turn is stopped. */
const slow = heldReply({ text: 'Too late.' });

const invoiceSchema = strictResponseFormat({
  invoice_number: { type: 'string', description: 'As printed' },
  total: { type: 'number', description: 'Amount due' },
});

/** The agent's side, scripted by what it was asked and what its calls returned so far in the turn. */
function agentReply(request: RecordedRequest): FakeReply {
  const asked = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (asked.includes(SET_UP)) {
    switch (outputs.length) {
      case 0:
        return { toolCalls: [{ name: 'create_schema', arguments: { name: DRAFT_NAME, response_format: invoiceSchema } }] };
      case 1:
        // Two calls at once: the person approves one and rejects the other.
        return {
          toolCalls: [
            {
              name: 'create_prompt',
              arguments: {
                name: PROMPT_NAME,
                content: 'Extract the invoice number and the total due.',
                schema_id: idIn(outputs, 'schema_id'),
              },
            },
            { name: 'create_tag', arguments: { name: 'invoices', description: 'Every invoice' } },
          ],
        };
      case 3:
        return { toolCalls: [{ name: 'run_extraction', arguments: {} }] };
      default:
        return {
          text:
            `Extraction is set up: [${SCHEMA_NAME}](schema:${idIn(outputs, 'schema_revid')}) with ` +
            `[${PROMPT_NAME}](prompt:${idIn(outputs, 'prompt_revid')}).\n\n| field | value |\n|---|---|\n| total | 1250.5 |`,
        };
    }
  }
  if (asked.includes(MENTION_QUESTION)) {
    return { reasoning: { text: 'The mentioned schema lists two properties.' }, text: 'It has invoice_number and total.' };
  }
  if (asked.includes(STILL_THERE)) return { text: STILL_HERE };
  return { text: 'I do not know that one.' };
}

async function handle(request: RecordedRequest): Promise<FakeReply> {
  if (!request.body?.tools) {
    // Extractions: the invoice schema's fields, or the default prompt's summary after the upload.
    const schema = JSON.stringify(requestedSchema(request) ?? {});
    return { text: JSON.stringify(schema.includes('invoice_number') ? INVOICE_VALUES : { summary: 'An invoice.' }) };
  }
  if (lastUserText(request).includes(TAKE_YOUR_TIME)) return slow.answer();
  return agentReply(request);
}

before(async () => {
  app = await startFakeLlmApp('agent-panel');
  app.fake.setHandler(handle);
  const samples = await buildSampleCorpus(join(app.dir, 'corpus'));
  invoicePath = samples.find((sample) => sample.name === 'invoice.pdf')?.path ?? '';
  assert.ok(invoicePath, 'the sample corpus has the invoice');
});

after(async () => {
  slow.release();
  await app?.close();
});

/** The page fits the window: nothing wider than it, and the three panels side by side with room each. */
async function assertFits(page: Page, label: string): Promise<void> {
  await fontsLoaded(page);
  const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
  assert.ok(overflow <= 0, `${label}: the page scrolls sideways by ${overflow}px`);
  const panels = [
    page.getByRole('region', { name: 'Side panel' }),
    page.getByRole('toolbar', { name: 'Document viewer' }),
    page.getByRole('region', { name: 'Agent panel' }),
  ];
  const boxes = [];
  for (const panel of panels) {
    await panel.waitFor();
    boxes.push(await panel.boundingBox());
  }
  const [left, center, right] = boxes;
  assert.ok(left && center && right, `${label}: the three panels are shown`);
  assert.ok(left.x + left.width <= center.x && center.x + center.width <= right.x, `${label}: side by side`);
  assert.ok(center.width >= 300, `${label}: the document keeps room (${center.width}px)`);
  const viewport = page.viewportSize();
  assert.ok(viewport && right.x + right.width <= viewport.width, `${label}: the agent panel is inside the window`);
}

test(`the document page and its agent panel: approvals, edits, extraction, stop, threads, mentions (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'agent-panel', { width: 1280, height: 800 }, scenario);
});

async function scenario(page: Page): Promise<void> {
  // The agent's sockets go through the test, which cuts one after a turn's first frame when asked.
  let cutAfterTurnStarts = false;
  await page.routeWebSocket(/\/agent\/ws$/, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((data) => server.send(data));
    server.onMessage((data) => {
      socket.send(data);
      if (cutAfterTurnStarts && String(data).includes('"type":"turn_started"')) {
        cutAfterTurnStarts = false;
        void socket.close();
      }
    });
  });
  const follows: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (String(payload).includes('"type":"follow"')) follows.push(String(payload));
    }),
  );
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;

  // Upload the sample invoice through the drop zone and open it once its default prompt ran.
  await page.getByLabel('Upload documents').setInputFiles(invoicePath);
  await page.getByRole('region', { name: 'Uploads' }).getByRole('listitem', { name: 'invoice.pdf' }).getByText('Done').waitFor();
  const { documents } = await api<{ documents: { id: string; document_name: string }[] }>(page, 'GET', `${org}/documents`);
  const documentId = documents.find((document) => document.document_name === 'invoice.pdf')?.id ?? '';
  assert.ok(documentId, `the upload is listed: ${JSON.stringify(documents)}`);
  await waitForPrompts(page, `${org}/documents/${documentId}`);
  await page.getByRole('region', { name: 'Documents' }).getByRole('link', { name: 'invoice.pdf', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'invoice.pdf' }).waitFor();

  // The middle panel shows the PDF, page by page.
  await page.getByRole('img', { name: 'Page 1 of 1' }).waitFor();
  await assertFits(page, '1280×800');
  // The page's text lies over the canvas: it can be selected (and copied, and found by the browser's search).
  const invoiceNumber = page.locator('.textLayer span', { hasText: 'INV-2026-0042' });
  await invoiceNumber.waitFor();
  await invoiceNumber.click({ clickCount: 3 });
  assert.match(String(await page.evaluate('String(window.getSelection())')), /Invoice number: INV-2026-0042/);
  // What pdf.js fetches for fonts a PDF names without embedding and for JBIG2/JPEG 2000 scans is served by the app.
  for (const file of ['standard_fonts/LiberationSans-Regular.ttf', 'standard_fonts/FoxitSerif.pfb', 'wasm/openjpeg.wasm']) {
    const response = await page.request.get(new URL(`/pdfjs/${file}`, page.url()).toString());
    assert.equal(response.status(), 200, file);
    assert.ok((await response.body()).length > 10_000, `${file} is the file, not the app's page`);
  }

  const agent = page.getByRole('region', { name: 'Agent panel' });
  const log = agent.getByRole('log', { name: 'Conversation' });
  const message = agent.getByRole('textbox', { name: 'Message' });
  // An answer's text shows before its turn ends; Enter sends nothing until the button says Send again.
  const idle = agent.getByRole('form', { name: 'Message the agent' }).getByRole('button', { name: 'Send', exact: true });
  // The current extraction is a drawer the panel's row of controls opens; the conversations, a picker there.
  const extraction = agent.getByRole('region', { name: 'Current extraction' });
  const controls = agentPanel(page);
  await agent
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });

  // The agent proposes a schema; the person fixes one argument (a wrong edit is refused first) and approves.
  await message.fill(SET_UP);
  await message.press('Enter');
  const schemaCard = log.getByRole('region', { name: /create_schema/ });
  await schemaCard.getByText('waiting for approval').waitFor();
  assert.match(
    await textOf(schemaCard),
    new RegExp(`Create schema “${DRAFT_NAME}” with 2 fields: invoice_number, total`),
    'the card says in words what the call will do',
  );
  await schemaCard.getByRole('button', { name: 'Edit arguments of create_schema' }).click();
  const editor = schemaCard.getByRole('textbox', { name: 'Arguments for create_schema' });
  const drafted = await editor.inputValue();
  assert.ok(drafted.includes(`"name": "${DRAFT_NAME}"`), drafted);
  await editor.fill(drafted.replace(`"name": "${DRAFT_NAME}"`, '"name": 42'));
  await schemaCard.getByRole('button', { name: 'Approve create_schema', exact: true }).click();
  assert.match(await textOf(schemaCard.getByRole('alert')), /name: /, "the tool's input schema refuses a number as name");
  assert.equal(await schemaCard.getByText('waiting for approval').count(), 1, 'nothing was sent');
  await editor.fill(drafted.replace(`"name": "${DRAFT_NAME}"`, `"name": "${SCHEMA_NAME}"`));
  // Editing clears the refusal; the person approves what they now see.
  await schemaCard.getByRole('alert').waitFor({ state: 'detached' });
  await page.screenshot({ path: join(ARTIFACTS, `agent-panel-edit-${testDatabaseKind()}.png`) });
  await schemaCard.getByRole('button', { name: 'Approve create_schema', exact: true }).click();

  // Two calls wait together: one approved, one rejected.
  const promptCard = log.getByRole('region', { name: /create_prompt/ });
  const tagCard = log.getByRole('region', { name: /create_tag/ });
  await promptCard.getByText('waiting for approval').waitFor();
  await tagCard.getByText('waiting for approval').waitFor();
  await schemaCard.getByText('done', { exact: true }).waitFor();
  await agent.getByRole('button', { name: 'Approve all' }).waitFor();
  await promptCard.getByRole('button', { name: 'Approve create_prompt', exact: true }).click();
  await promptCard.getByText('approved', { exact: true }).waitFor();
  await tagCard.getByRole('button', { name: 'Reject create_tag' }).click();

  // The extraction runs once approved, and both extraction panels fill in.
  const runCard = log.getByRole('region', { name: /run_extraction/ });
  await runCard.getByText('waiting for approval').waitFor();
  await tagCard.getByText('rejected', { exact: true }).waitFor();
  await runCard.getByRole('button', { name: 'Approve run_extraction', exact: true }).click();
  const done = log.getByText('Extraction is set up:');
  await done.waitFor();
  await runCard.getByText('done', { exact: true }).waitFor();
  await controls.extractionToggle.click();
  await extraction.getByText(INVOICE_VALUES.invoice_number).waitFor();
  const sidePanel = page.getByRole('region', { name: 'Side panel' });
  await sidePanel.getByText(PROMPT_NAME).first().waitFor();
  await sidePanel.locator(`input[value="${INVOICE_VALUES.invoice_number}"]`).first().waitFor();

  const schemas = await api<{ schemas: { name: string; schema_revid: string }[] }>(page, 'GET', `${org}/schemas`);
  const schema = schemas.schemas.find((candidate) => candidate.name === SCHEMA_NAME);
  assert.ok(schema, `the schema was saved with the edited name: ${JSON.stringify(schemas.schemas)}`);
  assert.ok(!schemas.schemas.some((candidate) => candidate.name === DRAFT_NAME), 'not with the proposed one');
  const tags = await api<{ tags: { name: string }[] }>(page, 'GET', `${org}/tags`);
  assert.ok(!tags.tags.some((tag) => tag.name === 'invoices'), 'the rejected tag was not created');
  // The answer's Markdown: a link to the schema, and a table.
  const answer = log.locator('.chat-markdown');
  const schemaLink = answer.getByRole('link', { name: SCHEMA_NAME, exact: true });
  assert.match((await schemaLink.getAttribute('href')) ?? '', /\/schemas\//);
  await answer.getByRole('table').waitFor();

  // A long turn is stopped with Esc; the conversation goes on afterwards.
  await idle.waitFor();
  await message.fill(TAKE_YOUR_TIME);
  await message.press('Enter');
  // Stopped while the model works on it, so that no later call of the test gets its place in the fake's queue.
  await within(slow.arrived, 60_000, 'the slow model call reaching the fake provider');
  await agent.getByRole('button', { name: 'Stop' }).waitFor();
  await message.press('Escape');
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await agent.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
  slow.release();

  // A new thread starts empty; an @-mention puts the schema into the model's system message.
  await agent.getByRole('button', { name: 'New', exact: true }).click();
  await log.getByText('Extraction is set up:').waitFor({ state: 'detached' });
  await message.click();
  await message.pressSequentially('Explain @Invo');
  const list = agent.getByRole('listbox', { name: 'Mention' });
  const options = list.getByRole('option');
  await options.filter({ hasText: PROMPT_NAME }).waitFor();
  const labels = await options.allTextContents();
  const target = labels.findIndex((label) => label.startsWith(SCHEMA_NAME) && label.includes('schema'));
  assert.ok(target >= 0, `the list offers the schema: ${labels.join(' | ')}`);
  for (let index = 0; index < target; index++) await message.press('ArrowDown');
  assert.equal(await options.nth(target).getAttribute('aria-selected'), 'true', 'the arrow keys move the choice');
  await message.press('Enter');
  await agent.getByRole('list', { name: 'Mentioned' }).getByText(`@${SCHEMA_NAME}`).waitFor();
  await message.pressSequentially(MENTION_QUESTION);
  await message.press('Enter');
  await log.getByText('It has invoice_number and total.').waitFor();
  const mentioned = app.fake.requests.findLast((request) => lastUserText(request).includes(MENTION_QUESTION));
  assert.ok(mentioned, 'the provider received the question');
  const system = systemText(mentioned);
  assert.ok(system.includes(`Schema "${SCHEMA_NAME}"`), `the system message names the schema:\n${system}`);
  assert.ok(system.includes(schema.schema_revid) && system.includes('invoice_number'), 'and carries its revision and fields');

  // The model's reasoning is folded under the answer, with how long it took.
  const thought = log.getByText(/^Thought( for \d+s)?$/);
  await thought.click();
  await log.getByText('The mentioned schema lists two properties.').waitFor();

  // A dropped socket: the browser gets the turn's first frame, then its socket closes; it opens
  // another, follows the turn again and shows it once.
  cutAfterTurnStarts = true;
  await idle.waitFor();
  await message.fill(STILL_THERE);
  await message.press('Enter');
  await log.getByText(STILL_HERE).waitFor();
  assert.equal(cutAfterTurnStarts, false, 'the socket was cut');
  assert.equal(follows.length, 1, `the turn was followed again: ${follows.join(', ')}`);
  assert.equal(await log.getByText(STILL_HERE).count(), 1, 'the replayed answer shows once');
  assert.equal(await log.getByRole('alert').count(), 0, 'no error for a connection that was followed again');

  // Back to the first thread: its messages and its extraction come back; then to the second again.
  await controls.openThread(SET_UP);
  await log.getByText('Extraction is set up:').waitFor();
  // How its last turn ended is shown again, though the stored thread does not keep it.
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await log
    .getByRole('region', { name: /create_tag/ })
    .getByText('rejected', { exact: true })
    .waitFor();
  await extraction.getByText(INVOICE_VALUES.invoice_number).waitFor();
  await controls.openThread('Explain');
  await log.getByText('It has invoice_number and total.').waitFor();
  await controls.openThread(SET_UP);
  await log.getByText('Extraction is set up:').waitFor();

  // The layout is remembered for the person, not only by this browser: a collapsed side panel stays
  // collapsed after a reload with the browser's storage cleared.
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/v0/account/preferences/document-panels') && response.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Collapse side panel' }).click();
  assert.equal((await saved).status(), 204);
  await page.evaluate('window.localStorage.clear()');
  await page.reload();
  await page.getByRole('button', { name: 'Expand side panel' }).click();
  await page.getByRole('region', { name: 'Side panel' }).getByText(PROMPT_NAME).first().waitFor();
  await controls.openThread(SET_UP);
  await log.getByText('Extraction is set up:').waitFor();

  const pdfPage = page.getByRole('img', { name: 'Page 1 of 1' });
  await assertFits(page, '1280×800');
  await pdfPage.and(page.locator('[aria-busy="false"]')).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `agent-panel-1280x800-${testDatabaseKind()}.png`) });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await assertFits(page, '1920×1080');
  await pdfPage.and(page.locator('[aria-busy="false"]')).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `agent-panel-1920x1080-${testDatabaseKind()}.png`) });
}
