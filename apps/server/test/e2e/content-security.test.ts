import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { RecordedRequest } from '@docagent/fake-llm';
import { cmyk, PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { isLoadableImageSource } from '../../../web/src/chat/markdownImages.ts';
import { ARTIFACTS, api, runScenario, signInFirstTime } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';

/**
 * Issue 14: the app works under its Content-Security-Policy (runScenario fails on any violation,
 * in pdf.js's worker too), uploaded files stay inert, and the agent's Markdown loads no remote image.
 */

const TRACKER = 'http://example.invalid/t.png';
const SHOW_ME = 'Show me the chart';
const ANSWER = `Here it is:\n\n![chart](${TRACKER})`;
const MARKDOWN_FILE = '# Notes\n\n<img src=x onerror="alert(1)">\n';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let app: FakeLlmApp;

/** The default prompt's summary after the upload; the agent's answer to anything. */
function reply(request: RecordedRequest) {
  const summary = { document_type: 'test file', summary: 'A test file.', key_facts: [] };
  return { text: request.body?.tools ? ANSWER : JSON.stringify(summary) };
}

before(async () => {
  app = await startFakeLlmApp('content-security');
  app.fake.setHandler(reply);
});

after(async () => {
  await app?.close();
});

/**
 * Printed in CMYK, so that pdf.js converts its colours with its ICC WebAssembly module, in a font
 * the PDF names but does not embed, so that pdf.js fetches it from the app.
 */
async function cmykPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([420, 300]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawRectangle({ x: 30, y: 170, width: 360, height: 90, color: cmyk(0, 0.6, 0.9, 0) });
  page.drawText('Colour proof 2026-03', { x: 40, y: 120, size: 24, font, color: cmyk(0.9, 0.5, 0, 0.2) });
  return pdf.save();
}

test('images in the agent’s Markdown load only from the app itself', () => {
  const origin = 'https://docs.example.test';
  for (const src of ['/v0/orgs/o/documents/d/file', 'chart.png', `${origin}/pdfjs/x.png`]) {
    assert.equal(isLoadableImageSource(src, origin), true, src);
  }
  for (const src of [
    TRACKER,
    '//example.invalid/t.png',
    'https://docs.example.test.evil.test/t.png',
    'http://docs.example.test/t.png',
    'https://docs.example.test:8443/t.png',
    '',
    'http://[bad',
  ]) {
    assert.equal(isLoadableImageSource(src, origin), false, src);
  }
});

test(`the app under its Content-Security-Policy: the PDF, image and text viewers, and the agent's Markdown (${testDatabaseKind()})`, {
  timeout: 5 * 60_000,
}, async () => {
  await runScenario(app.browser, 'content-security', { width: 1280, height: 720 }, scenario);
});

async function openDocument(page: Page, orgId: string, documentId: string, name: string): Promise<void> {
  await page.goto(new URL(`/orgs/${orgId}/documents/${documentId}`, page.url()).toString());
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

async function scenario(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const files = { 'proof.pdf': await cmykPdf(), 'photo.png': PNG, 'notes.md': Buffer.from(MARKDOWN_FILE) };
  const { documents } = await api<{ documents: { document_id: string; document_name: string }[] }>(
    page,
    'POST',
    `${org}/documents`,
    {
      documents: Object.entries(files).map(([name, bytes]) => ({ name, content: Buffer.from(bytes).toString('base64') })),
    },
  );
  const idOf = (name: string) => documents.find((document) => document.document_name === name)?.document_id ?? '';

  // The PDF: pdf.js's worker, its fonts and colour decoders, the page and its text layer.
  await openDocument(page, orgId, idOf('proof.pdf'), 'proof.pdf');
  await page.getByRole('img', { name: 'Page 1 of 1' }).and(page.locator('[aria-busy="false"]')).waitFor();
  await page.locator('.textLayer span', { hasText: 'Colour proof 2026-03' }).waitFor();
  await page.screenshot({ path: join(ARTIFACTS, `content-security-pdf-${testDatabaseKind()}.png`) });

  // The agent's answer points at a remote image: its address is shown, nothing is fetched.
  const agent = page.getByRole('region', { name: 'Agent panel' });
  const log = agent.getByRole('log', { name: 'Conversation' });
  await agent
    .getByRole('combobox', { name: 'Model', exact: true })
    .locator('option', { hasText: 'openai:' })
    .first()
    .waitFor({ state: 'attached' });
  const remote: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === 'example.invalid') remote.push(request.url());
  });
  await agent.getByRole('textbox', { name: 'Message' }).fill(SHOW_ME);
  await agent.getByRole('textbox', { name: 'Message' }).press('Enter');
  await log.getByText(`Image “chart” not loaded: ${TRACKER}`).waitFor();
  assert.equal(await log.locator('img').count(), 0, 'the answer has no image element');
  assert.deepEqual(remote, [], 'nothing was asked of the remote host');
  await page.screenshot({ path: join(ARTIFACTS, `content-security-remote-image-${testDatabaseKind()}.png`) });

  // The image viewer shows the upload; the text view shows Markdown's HTML as text.
  await openDocument(page, orgId, idOf('photo.png'), 'photo.png');
  // The viewer knows the image's size, and so its zoom, once it has loaded.
  await page
    .getByLabel('Zoom level')
    .getByText(/^\d+%$/)
    .waitFor();
  await openDocument(page, orgId, idOf('notes.md'), 'notes.md');
  await page.locator('pre').filter({ hasText: '<img src=x onerror="alert(1)">' }).waitFor();

  // Opened on its own, a Markdown file is a download, not a page of the app.
  const fileUrl = new URL(`${org}/documents/${idOf('notes.md')}/file`, page.url()).toString();
  const [download] = await Promise.all([page.waitForEvent('download'), page.goto(fileUrl).catch(() => null)]);
  assert.equal(download.suggestedFilename(), 'notes.md');
}
