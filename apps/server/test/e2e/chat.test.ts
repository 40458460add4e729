import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import { type FakeReply, heldReply, type RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { createSseParser, parseChatFrames } from '../../../web/src/api/chatStream.ts';
import { filterChoices, type MentionChoice, mentionQueryAt, mentionsInText } from '../../../web/src/chat/mentions.ts';
import { parseResourceHref } from '../../../web/src/chat/resourceLinks.ts';
import { groupThreads } from '../../../web/src/chat/threadGroups.ts';
import { failedStatus } from '../../../web/src/chat/toolStatus.ts';
import { ARTIFACTS, api, runScenario, signInFirstTime, textOf, waitForPrompts, within } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn } from './responses-requests.ts';
import { agentPanel } from './workspace-checks.ts';

const CREATE_TAG = 'Create a tag named urgent';
const DELETE_DOCUMENT = 'Delete this document';
const CREATED = 'Created the tag.';
const NOT_DELETING = 'OK, not deleting.';
const TAKE_YOUR_TIME = 'Take your time';
const ASK_ME = 'Ask me which currency';
const QUESTION = 'Is the total in USD or in EUR?';
/** The model call of the turn the test stops: answered only once the turn is stopped. */
const slow = heldReply({ text: 'Too late.' });

let app: FakeLlmApp;
/** The document the agent is asked to delete. */
let documentId = '';

/** The agent's side of the conversation, scripted: a tool call first, then text once it has its result. */
function reply(request: RecordedRequest): FakeReply {
  if (!request.body?.tools) {
    // The default prompt's summary after the upload.
    return { text: '{"summary":"x"}' };
  }
  const asked = lastUserText(request);
  const outputs = outputsOfTurn(request);
  if (asked.includes(CREATE_TAG)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'create_tag', arguments: { name: 'urgent', description: 'Needs attention' } }] }
      : { text: CREATED };
  }
  if (asked.includes(DELETE_DOCUMENT)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'delete_document', arguments: { document_id: documentId } }] }
      : { text: NOT_DELETING };
  }
  if (asked.includes(ASK_ME)) {
    return outputs.length === 0
      ? { toolCalls: [{ name: 'request_input', arguments: { question: QUESTION } }] }
      : { text: `Noted: ${JSON.parse(outputs[0] ?? '{}').answer}.` };
  }
  return { text: 'I do not know that one.' };
}

/** The question of the turn the test stops is held; everything else is scripted. */
async function handle(request: RecordedRequest): Promise<FakeReply> {
  if (request.body?.tools && lastUserText(request).includes(TAKE_YOUR_TIME)) return slow.answer();
  return reply(request);
}

before(async () => {
  app = await startFakeLlmApp('chat');
  app.fake.setHandler(handle);
});

after(async () => {
  slow.release();
  await app?.close();
});

test('a tool card says how its call was decided, from the decision the server gave (the text only for older stored calls)', () => {
  assert.equal(failedStatus('rejected', 'User rejected this action.'), 'rejected');
  assert.equal(failedStatus('denied', 'This run may make only its declared writes.'), 'denied');
  assert.equal(failedStatus('stopped', 'Stopped by the user before this call ran.'), 'stopped');
  assert.equal(
    failedStatus('allowed', 'User rejected this action.'),
    'failed',
    'a tool whose own error reads like a rejection failed',
  );
  assert.equal(failedStatus(undefined, 'User rejected this action.'), 'rejected');
  assert.equal(failedStatus(undefined, 'Tag x was not found.'), 'failed');
});

test("the chat panel's helpers: mentions, resource links, thread groups", () => {
  assert.deepEqual(mentionQueryAt('Use @inv', 8), { start: 4, query: 'inv' });
  assert.equal(mentionQueryAt('mail@example', 12), null, 'an @ inside a word is no mention');
  const invoice: MentionChoice = { type: 'schema', id: 'rev1', label: 'Invoice', detail: 'schema v2' };
  const urgent: MentionChoice = { type: 'tag', id: 'tag1', label: 'urgent', detail: 'tag' };
  assert.deepEqual(filterChoices([invoice, urgent], 'inv'), [invoice]);
  assert.deepEqual(mentionsInText('Check @Invoice now', [invoice, urgent, invoice]), [{ type: 'schema', id: 'rev1' }]);

  assert.deepEqual(parseResourceHref('schema:abc-1'), { kind: 'schema', id: 'abc-1' });
  assert.deepEqual(parseResourceHref('document:d_9'), { kind: 'document', id: 'd_9' });
  assert.equal(parseResourceHref('javascript:alert(1)'), null);

  const now = new Date(2026, 5, 10, 12);
  const at = (days: number) => new Date(2026, 5, 10 - days, 9).toISOString();
  const thread = (id: string, days: number) => ({ id, title: id, created_at: at(days), updated_at: at(days) });
  assert.deepEqual(
    groupThreads([thread('a', 0), thread('b', 1), thread('c', 3), thread('d', 30)], now).map((group) => [
      group.label,
      group.threads.map((t) => t.id),
    ]),
    [
      ['Today', ['a']],
      ['Yesterday', ['b']],
      ['This week', ['c']],
      ['Older', ['d']],
    ],
  );
});

test('the web client reads chat frames however the stream is cut', () => {
  const stream =
    'id: 1\ndata: {"type":"turn_started","turn_id":"t1","thread_id":null,"model":"m","max_steps":10}\n\n' +
    ': a comment\r\nid: 2\r\ndata: {"type":"assistant_text_chunk",\r\ndata: "chunk":"héllo","round_index":0}\r\n\r\n' +
    'data: not json\n\n' +
    'id: 3\rdata: {"type":"done","result":{"text":"héllo"}}\r\r' +
    'data: {"type":"error","error":"cut before its blank line"}\n';
  const whole = parseChatFrames(stream);
  assert.deepEqual(
    whole.map((frame) => frame.type),
    ['turn_started', 'assistant_text_chunk', 'done'],
  );
  assert.deepEqual(whole[1], { type: 'assistant_text_chunk', chunk: 'héllo', round_index: 0 });
  // One character at a time (a CR and its LF in separate pieces too), the same events with their ids.
  const parser = createSseParser();
  const events = [...stream].flatMap((character) => parser.push(character));
  events.push(...parser.end());
  assert.deepEqual(
    events.map((event) => event.id),
    ['1', '2', '2', '3'],
  );
  assert.equal(events.length, 4, 'the unparseable data is an event; the unterminated one is dropped');
});

test(`the document agent chats, asks before changing data and keeps its conversations (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'chat', { width: 1400, height: 1000 }, walkThrough);
});

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;

  const text = 'ACME Corp\nInvoice INV-2024-0042\nTotal due: 1,250.50 USD\n';
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'invoice.txt', content: Buffer.from(text).toString('base64') }],
  });
  documentId = documents[0]?.document_id ?? '';
  assert.ok(documentId, 'the upload stored the document');
  const documentPath = `${org}/documents/${documentId}`;
  await waitForPrompts(page, documentPath);

  await page.goto(`${new URL(page.url()).origin}/orgs/${orgId}/documents/${documentId}`);
  await page.getByRole('heading', { level: 1, name: 'invoice.txt' }).waitFor();
  await page.getByRole('region', { name: 'Chat' }).waitFor();
  const chat = page.getByRole('region', { name: 'Chat' });
  const log = chat.getByRole('log', { name: 'Conversation' });
  const message = chat.getByRole('textbox', { name: 'Message' });
  // An answer's text shows before its turn ends; Enter sends nothing until the button says Send again.
  const idle = chat.getByRole('form', { name: 'Message the agent' }).getByRole('button', { name: 'Send', exact: true });
  // The model list loads before the first message can go.
  await chat
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });

  // A write tool waits for approval; approved, it runs and the agent answers.
  await message.fill(CREATE_TAG);
  await message.press('Enter');
  await log.getByText(CREATE_TAG).waitFor();
  const createCard = log.getByRole('region', { name: /create_tag/ });
  await createCard.getByText('waiting for approval').waitFor();
  assert.match(await textOf(createCard), /"urgent"/, 'the card shows the arguments');
  await createCard.getByRole('button', { name: 'Edit arguments of create_tag' }).click();
  assert.match(await createCard.getByRole('textbox').inputValue(), /"urgent"/, 'the editor starts from the arguments');
  await page.screenshot({ path: join(ARTIFACTS, `chat-approval-${testDatabaseKind()}.png`), fullPage: true });
  await createCard.getByRole('button', { name: 'Approve create_tag', exact: true }).click();
  await log.getByText(CREATED).waitFor();
  await createCard.getByText('done', { exact: true }).waitFor();
  assert.match(await textOf(createCard), /Tag created/, 'the card previews the result');
  const { tags } = await api<{ tags: { name: string }[] }>(page, 'GET', `${org}/tags`);
  assert.ok(
    tags.some((tag) => tag.name === 'urgent'),
    'the tag exists',
  );

  // A rejected call does not run; the agent is told and says so.
  await message.fill(DELETE_DOCUMENT);
  await chat.getByRole('button', { name: 'Send' }).click();
  const deleteCard = log.getByRole('region', { name: /delete_document/ });
  await deleteCard.getByText('waiting for approval').waitFor();
  await deleteCard.getByRole('button', { name: 'Reject delete_document' }).click();
  await log.getByText(NOT_DELETING).waitFor();
  await deleteCard.getByText('rejected', { exact: true }).waitFor();
  await api(page, 'GET', `${documentPath}?include_content=false`);
  const rejectedRun = app.fake.requests.find(
    (request) =>
      lastUserText(request).includes(DELETE_DOCUMENT) && outputsOfTurn(request).some((output) => /rejected/i.test(output)),
  );
  assert.ok(rejectedRun, 'the model was told that the person rejected the call');
  await page.screenshot({ path: join(ARTIFACTS, `chat-rejected-${testDatabaseKind()}.png`), fullPage: true });

  // A turn that takes long is stopped; the conversation can go on afterwards.
  await idle.waitFor();
  await message.fill(TAKE_YOUR_TIME);
  await message.press('Enter');
  // Stopped while the model works on it, so that no later call of the test gets its place in the fake's queue.
  await within(slow.arrived, 60_000, 'the slow model call reaching the fake provider');
  const stop = chat.getByRole('button', { name: 'Stop' });
  await stop.click();
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await stop.waitFor({ state: 'detached' });
  slow.release();
  assert.equal(await log.getByText('Too late.').count(), 0, 'nothing of the stopped answer shows');

  // A failing provider: the error the stream ends with is shown.
  app.fake.enqueue({ kind: 'error', status: 500, message: 'the fake provider exploded' });
  await message.fill('Hello?');
  await message.press('Enter');
  const failure = chat.getByRole('alert').filter({ hasText: 'The agent could not answer' });
  await failure.waitFor();
  assert.match(await textOf(failure), /the fake provider exploded/);
  // Retry sends the message again, in place of the failed attempt.
  await failure.getByRole('button', { name: 'Retry' }).click();
  await log.getByText('I do not know that one.').waitFor();
  await failure.waitFor({ state: 'detached' });
  assert.equal(await log.getByText('Hello?', { exact: true }).count(), 1, 'the message shows once');

  // The agent asks; the answer goes back to it as the question's result.
  await idle.waitFor();
  await message.fill(ASK_ME);
  await message.press('Enter');
  const question = chat.getByRole('form', { name: 'Question from the agent' });
  await question.getByLabel(QUESTION).fill('EUR');
  await question.getByRole('button', { name: 'Send answer' }).click();
  await log.getByText('Noted: EUR.').waitFor();
  await question.waitFor({ state: 'detached' });

  // The conversation is kept: after a reload it is listed, and picking it shows its history.
  await page.reload();
  await page.getByRole('region', { name: 'Chat' }).waitFor();
  await agentPanel(page).openThread(CREATE_TAG);
  await log.getByText(CREATED).waitFor();
  await log.getByText(NOT_DELETING).waitFor();
  await log
    .getByRole('region', { name: /create_tag/ })
    .getByText('done', { exact: true })
    .waitFor();
  await log
    .getByRole('region', { name: /delete_document/ })
    .getByText('rejected', { exact: true })
    .waitFor();

  // An earlier message edited and sent again replaces it and everything after it.
  const hello = log.getByText('Hello?', { exact: true });
  await hello.hover();
  await log.getByRole('button', { name: 'Edit' }).filter({ visible: true }).first().click();
  await log.getByRole('form', { name: 'Edit message' }).getByLabel('Edited message').fill('Hello, anyone?');
  await log.getByRole('button', { name: 'Send edited' }).click();
  await log.getByText('Hello, anyone?', { exact: true }).waitFor();
  await log.getByText('Noted: EUR.').waitFor({ state: 'detached' });
  assert.equal(await hello.count(), 0, 'the edited message replaced the old one');
  await log.getByText(CREATED).waitFor();
}
