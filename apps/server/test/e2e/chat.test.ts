import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlm } from '@docagent/fake-llm';
import type { Browser, Locator, Page } from 'playwright-core';
import { createSseParser, parseChatFrames } from '../../../web/src/api/chatStream.ts';
import { envFor, type ServerProcess, startServer } from '../processes.ts';
import { type BrowserProblem, launchBrowser, signInFirstTime, watchBrowserProblems } from './browser.ts';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** Text extraction and the default prompt, on a slow CI machine. */
const EXTRACTION_TIMEOUT_MS = 3 * 60_000;
const CREATE_TAG = 'Create a tag named urgent';
const DELETE_DOCUMENT = 'Delete this document';
const CREATED = 'Created the tag.';
const NOT_DELETING = 'OK, not deleting.';
const TAKE_YOUR_TIME = 'Take your time';
/** Answers the slow request once the test has stopped its turn. */
let releaseSlow: () => void = () => {};

let server: ServerProcess;
let browser: Browser;
let fake: FakeLlmServer;
let drop: () => Promise<void>;
/** The document the agent is asked to delete. */
let documentId = '';
const dir = mkdtempSync(join(tmpdir(), 'docagent-e2e-chat-'));

// biome-ignore lint/suspicious/noExplicitAny: Responses API input items, read field by field
type InputItem = any;

const inputOf = (request: RecordedRequest): InputItem[] => (Array.isArray(request.body?.input) ? request.body.input : []);

/** The text of the person's last message in a Responses API request. */
function lastUserText(request: RecordedRequest): string {
  const message = inputOf(request).findLast((item) => item.role === 'user');
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  return (message.content as InputItem[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The outputs of the calls of this turn: those after the person's last message. */
function outputsOfTurn(request: RecordedRequest): { output: string }[] {
  const input = inputOf(request);
  const lastUser = input.findLastIndex((item) => item.role === 'user');
  return input.slice(lastUser + 1).filter((item) => item.type === 'function_call_output');
}

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
  return { text: 'I do not know that one.' };
}

/** Holds the answer to a slow question until the test lets it go. */
async function handle(request: RecordedRequest): Promise<FakeReply> {
  if (request.body?.tools && lastUserText(request).includes(TAKE_YOUR_TIME)) {
    await new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    return { text: 'Too late.' };
  }
  return reply(request);
}

before(async () => {
  fake = await startFakeLlm();
  fake.setHandler(handle);
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  drop = target.drop;
  const env = envFor(target.target);
  for (const key of Object.keys(env)) {
    if (/_(API_KEY|BASE_URL|MODELS)$/.test(key)) delete env[key];
  }
  server = await startServer({ ...env, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, LLM_MAX_RETRIES: '0' });
  browser = await launchBrowser();
});

after(async () => {
  releaseSlow();
  await browser?.close();
  await server?.stop();
  await fake?.close();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

const textOf = async (locator: Locator) => (await locator.textContent()) ?? '';

/** Calls the API with the browser's session, as the web app does. */
async function api<T>(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const origin = new URL(page.url()).origin;
  const headers: Record<string, string> = {};
  if (method !== 'GET') {
    const me = await page.request.get(`${origin}/v0/account/me`);
    headers['x-csrf-token'] = ((await me.json()) as { csrf_token: string }).csrf_token;
  }
  const response = await page.request.fetch(`${origin}${path}`, { method, headers, data: body });
  assert.ok(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Waits until the document's text is extracted and its default prompt has run. */
async function waitForPrompts(page: Page, path: string): Promise<void> {
  const deadline = Date.now() + EXTRACTION_TIMEOUT_MS;
  for (;;) {
    const { state } = await api<{ state: string }>(page, 'GET', `${path}?include_content=false`);
    if (state === 'llm_completed') return;
    assert.ok(!state.endsWith('_failed'), `the document's processing failed: ${state}`);
    assert.ok(Date.now() < deadline, `the document is still ${state}`);
    await sleep(250);
  }
}

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
  mkdirSync(ARTIFACTS, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(30_000);
  const problems = watchBrowserProblems(page);
  try {
    await walkThrough(page, problems);
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, `chat-failure-${testDatabaseKind()}.png`), fullPage: true });
    throw error;
  }
});

async function walkThrough(page: Page, problems: BrowserProblem[]): Promise<void> {
  await signInFirstTime(page, server);
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
  await page.getByRole('tab', { name: 'Chat' }).click();
  const chat = page.getByRole('region', { name: 'Chat' });
  const log = chat.getByRole('log', { name: 'Conversation' });
  const message = chat.getByRole('textbox', { name: 'Message' });
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
  assert.match(await createCard.getByRole('textbox').inputValue(), /"urgent"/, 'the card shows the arguments');
  await page.screenshot({ path: join(ARTIFACTS, `chat-approval-${testDatabaseKind()}.png`), fullPage: true });
  await createCard.getByRole('button', { name: 'Approve create_tag' }).click();
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
  const rejectedRun = fake.requests.find(
    (request) =>
      lastUserText(request).includes(DELETE_DOCUMENT) &&
      outputsOfTurn(request).some((item) => /rejected/i.test(String(item.output))),
  );
  assert.ok(rejectedRun, 'the model was told that the person rejected the call');
  await page.screenshot({ path: join(ARTIFACTS, `chat-rejected-${testDatabaseKind()}.png`), fullPage: true });

  // A turn that takes long is stopped; the conversation can go on afterwards.
  await message.fill(TAKE_YOUR_TIME);
  await message.press('Enter');
  const stop = chat.getByRole('button', { name: 'Stop' });
  await stop.click();
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await stop.waitFor({ state: 'detached' });
  releaseSlow();
  assert.equal(await log.getByText('Too late.').count(), 0, 'nothing of the stopped answer shows');

  // A failing provider: the error the stream ends with is shown.
  fake.enqueue({ kind: 'error', status: 500, message: 'the fake provider exploded' });
  await message.fill('Hello?');
  await message.press('Enter');
  const failure = chat.getByRole('alert').filter({ hasText: 'The agent could not answer' });
  await failure.waitFor();
  assert.match(await textOf(failure), /the fake provider exploded/);

  // The conversation is kept: after a reload it is listed, and picking it shows its history.
  await page.reload();
  await page.getByRole('tab', { name: 'Chat' }).click();
  const picker = chat.getByRole('combobox', { name: 'Conversation', exact: true });
  const stored = picker.locator('option', { hasText: CREATE_TAG });
  await stored.waitFor({ state: 'attached' });
  await picker.selectOption({ label: (await stored.textContent()) ?? '' });
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

  assert.deepEqual(problems, [], 'no console errors or page errors');
}
