import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import { type FakeReply, heldReply, type RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { segmentsOf } from '../../../web/src/chat/stepGroups.ts';
import { readSocketMessage } from '../../../web/src/chat/transport/socketMessages.ts';
import { ARTIFACTS, api, runScenario, signInFirstTime, textOf, waitForPrompts, within } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn, systemText } from './responses-requests.ts';

/**
 * Issue 15's browser scenario: the agent panel switched to Reason–Act–Observe, over the
 * WebSocket (and over SSE when the socket is refused), with the fake provider as the model.
 */

const READ_TOTAL = 'What is the total due?';
const KEEP_GOING = 'Check every page, slowly';
const ASK_ME = 'Ask me which currency to report';
const QUESTION = 'Should I report the total in USD or in EUR?';
const FINAL_TOTAL = 'You owe 1,250.50 USD in total.';
const FLASH = '❓ Question from the agent';

let app: FakeLlmApp;
/** The observe call of the turn the test stops: answered only once the turn is stopped. */
const slowObserve = heldReply({ text: 'Too late.\n\n{"observation":"late","should_continue":true}' });

/** A phase's answer as the prompts ask for it: text for the person, then the control object in a fence. */
const phase = (text: string, control: object) => `${text}\n\n\`\`\`json\n${JSON.stringify(control)}\n\`\`\``;

function reason(asked: string): FakeReply {
  if (asked.includes(ASK_ME)) {
    return { text: phase('I need to know **which currency** you want.', { plan: 'Ask the person', finish: false }) };
  }
  return {
    text: phase("I will **read the document's text** to find the total.", {
      plan: 'Read the text with get_ocr_text',
      tools_to_consider: ['get_ocr_text'],
      finish: false,
    }),
  };
}

function act(asked: string, outputs: string[]): FakeReply {
  if (outputs.length > 0) return { text: 'Done with the tools.' };
  if (asked.includes(ASK_ME)) return { toolCalls: [{ name: 'request_input', arguments: { question: QUESTION } }] };
  return { toolCalls: [{ name: 'get_ocr_text', arguments: {} }] };
}

function observe(asked: string, outputs: string[]): FakeReply | Promise<FakeReply> {
  if (asked.includes(KEEP_GOING)) return slowObserve.answer();
  if (asked.includes(ASK_ME)) {
    const answer = JSON.parse(outputs[0] ?? '{}').answer;
    return {
      text: phase(`You answered ${answer}.`, { observation: answer, should_continue: false, final_answer: `Noted: ${answer}.` }),
    };
  }
  return {
    text: phase('The text says the total due is 1,250.50 USD.', {
      observation: 'The total is 1,250.50 USD',
      should_continue: false,
      final_answer: FINAL_TOTAL,
    }),
  };
}

/** Reason and observe are plain calls told their phase in the system message; act is the call with tools. */
async function handle(request: RecordedRequest): Promise<FakeReply> {
  const system = systemText(request);
  const asked = lastUserText(request);
  if (system.includes('## Reason (step')) return reason(asked);
  if (system.includes('## Observe (step')) return observe(asked, outputsOfTurn(request));
  if (request.body?.tools) return act(asked, outputsOfTurn(request));
  // The default prompt's extraction after the upload.
  return { text: '{"summary":"An invoice."}' };
}

before(async () => {
  app = await startFakeLlmApp('agent-roa');
  app.fake.setHandler(handle);
});

after(async () => {
  slowObserve.release();
  await app?.close();
});

test('the WebSocket envelope is read as the SSE frame it carries, and the steps are grouped', () => {
  assert.deepEqual(
    readSocketMessage('{"type":"agent_update","update_type":"agent_reason","turn_id":"t1","event_id":4,"content":"Hi","step":1}'),
    { kind: 'frame', turnId: 't1', eventId: '4', frame: { type: 'agent_reason', turn_id: 't1', content: 'Hi', step: 1 } },
  );
  assert.deepEqual(readSocketMessage('{"type":"error","error":"bad message"}'), { kind: 'refused', error: 'bad message' });
  assert.deepEqual(
    readSocketMessage('{"type":"error","turn_id":"t1","error":"not paused"}'),
    { kind: 'refused', error: 'not paused' },
    'an error without an event id refuses a message about the turn; the turn goes on',
  );
  assert.equal(readSocketMessage('{"type":"agent_control_result","turn_id":"t1","status":"stopping"}').kind, 'other');
  assert.deepEqual(readSocketMessage('not json'), { kind: 'other' });
  const step = (n: number, key: string) => ({ kind: 'step' as const, key, step: n });
  const segments = segmentsOf([
    { kind: 'user', key: 'u', text: 'Go' },
    step(1, 's1'),
    { kind: 'phase', key: 'r1', step: 1, phase: 'reason', text: 'Plan' },
    step(2, 's2'),
    { kind: 'notice', key: 'n', text: 'Stopped.' },
  ]);
  assert.deepEqual(
    segments.map((segment) => (segment.kind === 'step' ? `step ${segment.step}: ${segment.items.length}` : segment.item.kind)),
    ['user', 'step 1: 2', 'step 2: 1', 'notice'],
  );
});

test(`Reason–Act–Observe in the agent panel: timeline, stop, a question (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'agent-roa', { width: 1280, height: 720 }, scenario);
});

/** The messages the page sent on its agent sockets, and those it received. */
function watchSockets(page: Page) {
  const sent: Array<Record<string, unknown>> = [];
  const received: Array<Record<string, unknown>> = [];
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/agent/ws')) return;
    socket.on('framesent', ({ payload }) => sent.push(JSON.parse(String(payload))));
    socket.on('framereceived', ({ payload }) => received.push(JSON.parse(String(payload))));
  });
  return { sent, received };
}

/** The animation an element runs (through its own window: the test has no DOM globals). */
// biome-ignore lint/suspicious/noExplicitAny: an element of the page, typed by the page's DOM
const pulse = (element: any): string => element.ownerDocument.defaultView.getComputedStyle(element).animationName;

/** Waits until the tab's title is this one (read from outside: the page's CSP allows no evaluated strings). */
async function titleIs(page: Page, title: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await page.title()) !== title) {
    assert.ok(Date.now() < deadline, `the title becomes "${title}" (it is "${await page.title()}")`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function scenario(page: Page): Promise<void> {
  const sockets = watchSockets(page);
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/chat(\/approve)?$/.test(new URL(request.url()).pathname)) posted.push(request.url());
  });

  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const text = 'ACME Corp\nInvoice INV-2024-0042\nTotal due: 1,250.50 USD\n';
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: 'invoice.txt', content: Buffer.from(text).toString('base64') }],
  });
  const documentId = documents[0]?.document_id ?? '';
  await waitForPrompts(page, `${org}/documents/${documentId}`);
  await page.goto(`${new URL(page.url()).origin}/orgs/${orgId}/documents/${documentId}`);

  const chat = page.getByRole('region', { name: 'Chat' });
  const log = chat.getByRole('log', { name: 'Conversation' });
  const message = chat.getByRole('textbox', { name: 'Message' });
  await chat.getByRole('combobox', { name: 'Model', exact: true }).locator('option', { hasText: 'openai:' }).first().waitFor({
    state: 'attached',
  });

  // Settings: the strategy switch and the iteration budget, in a popover of the panel's row of controls.
  const settings = page.getByRole('region', { name: 'Agent panel' });
  await settings.locator('summary', { hasText: 'Settings' }).click();
  // The switch's radios are drawn as its segments: the person clicks the segment.
  await settings.getByText('Reason–Act–Observe', { exact: true }).click();
  assert.ok(await settings.getByRole('radio', { name: 'Reason–Act–Observe' }).isChecked(), 'the strategy is switched');
  await settings.getByRole('spinbutton', { name: 'Max iterations' }).fill('5');

  // A turn that reads the text: Step 1 holds the reasoning (Markdown), the call and the observation; the answer follows.
  await message.fill(READ_TOTAL);
  await message.press('Enter');
  await log.getByText(FINAL_TOTAL).waitFor();
  const step1 = log.getByRole('region', { name: 'Step 1' });
  await step1.getByText('Step 1', { exact: true }).waitFor();
  await step1.locator('strong', { hasText: "read the document's text" }).waitFor();
  assert.ok(!(await textOf(step1)).includes('"plan"'), 'the control block is not shown');
  await step1
    .getByRole('region', { name: /get_ocr_text/ })
    .getByText('done', { exact: true })
    .waitFor();
  await step1.getByText('The text says the total due is 1,250.50 USD.').waitFor();
  const order = await step1.evaluate((group) => group.textContent ?? '');
  assert.ok(
    order.indexOf('Reason') < order.indexOf('get_ocr_text') && order.indexOf('get_ocr_text') < order.indexOf('Observe'),
    `reason, act, observe in order: ${order}`,
  );
  const chatMessage = sockets.sent.find((sent) => sent.type === 'chat');
  assert.ok(chatMessage, `the turn went over the WebSocket: ${JSON.stringify(sockets.sent)}`);
  assert.equal(chatMessage.strategy, 'roa');
  assert.equal(chatMessage.agent_max_steps, 5);
  assert.ok(
    sockets.received.some((received) => received.type === 'agent_update' && received.update_type === 'agent_reason'),
    'the reasoning came in its agent_update envelope',
  );
  assert.deepEqual(posted, [], 'nothing went over HTTP');
  const reasonCall = app.fake.requests.find(
    (request) => lastUserText(request).includes(READ_TOTAL) && systemText(request).includes('## Reason (step 1'),
  );
  assert.ok(reasonCall && !reasonCall.body?.tools, 'reason is a plain call, without tools');
  await page.screenshot({ path: join(ARTIFACTS, `agent-roa-timeline-1280x720-${testDatabaseKind()}.png`) });
  // The whole conversation, in a window tall enough for it.
  await page.setViewportSize({ width: 1280, height: 1400 });
  await log.screenshot({ path: join(ARTIFACTS, `agent-roa-conversation-${testDatabaseKind()}.png`) });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Stopped while it observes: the step ends there, no second step starts.
  await message.fill(KEEP_GOING);
  await message.press('Enter');
  await within(slowObserve.arrived, 60_000, 'the slow observe call reaching the fake provider');
  await chat.getByRole('status').filter({ hasText: 'step 1 of 5' }).waitFor();
  await chat.getByRole('button', { name: 'Stop' }).click();
  await log.getByText('Stopped.', { exact: true }).waitFor();
  await chat.getByRole('button', { name: /^Stop/ }).waitFor({ state: 'detached' });
  slowObserve.release();
  assert.ok(
    sockets.sent.some((sent) => sent.type === 'agent_control' && sent.action === 'stop'),
    'the stop went over the socket',
  );
  assert.equal(await log.getByRole('region', { name: 'Step 2' }).count(), 0, 'no step after the stop');

  // A question: the tab's title flashes and the card pulses until it is answered; the answer box has the focus.
  const title = await page.title();
  await message.fill(ASK_ME);
  await message.press('Enter');
  const question = chat.getByRole('form', { name: 'Question from the agent' });
  const answerBox = question.getByLabel(QUESTION);
  await answerBox.waitFor();
  await titleIs(page, FLASH);
  await titleIs(page, title);
  await titleIs(page, FLASH);
  assert.equal(await answerBox.and(page.locator(':focus')).count(), 1, 'the answer box has the focus');
  assert.equal(await question.evaluate(pulse), 'attention');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal(await question.evaluate(pulse), 'none', 'no pulse with reduced motion');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.screenshot({ path: join(ARTIFACTS, `agent-roa-question-1280x720-${testDatabaseKind()}.png`) });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: join(ARTIFACTS, `agent-roa-question-1440x900-${testDatabaseKind()}.png`) });
  await answerBox.fill('EUR');
  await question.getByRole('button', { name: 'Send answer' }).click();
  await log.getByText('Noted: EUR.').waitFor();
  await question.waitFor({ state: 'detached' });
  await titleIs(page, title);
  await log.getByText('Your answer:').last().waitFor();
  assert.ok(
    sockets.sent.some((sent) => sent.type === 'agent_user_input' && sent.content === 'EUR'),
    'the answer went over the socket',
  );
  await page.screenshot({ path: join(ARTIFACTS, `agent-roa-timeline-1440x900-${testDatabaseKind()}.png`) });

  // A socket the server refuses (4401): the panel falls back to SSE. Its stream cut after the first
  // frame, the turn is followed again (Last-Event-ID) and its timeline shows once.
  await page.routeWebSocket(/\/agent\/ws$/, (socket) => socket.close({ code: 4401, reason: 'not signed in' }));
  await page.route(
    `**${org}/documents/${documentId}/chat`,
    async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      await route.fulfill({ response, body: body.slice(0, body.indexOf('\n\n') + 2) });
    },
    { times: 1 },
  );
  await page.reload();
  await chat.getByRole('combobox', { name: 'Model', exact: true }).locator('option', { hasText: 'openai:' }).first().waitFor({
    state: 'attached',
  });
  const followed = page.waitForRequest((request) => /\/turns\/[^/]+\/stream$/.test(new URL(request.url()).pathname));
  await message.fill(READ_TOTAL);
  await message.press('Enter');
  await followed;
  await log.getByText(FINAL_TOTAL).waitFor();
  await log
    .getByRole('region', { name: 'Step 1' })
    .getByRole('region', { name: /get_ocr_text/ })
    .waitFor();
  assert.equal(posted.length, 1, `the turn went over HTTP: ${posted.join(', ')}`);
  assert.equal(await log.getByText(FINAL_TOTAL).count(), 1, 'the replayed answer shows once');
  assert.equal(await log.getByRole('alert').count(), 0, 'no error for a stream that was followed again');
}
