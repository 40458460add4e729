import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildSampleCorpus, type Sample } from '@docagent/core/sample-corpus';
import { createTestDatabaseTarget, testDatabaseKind } from '@docagent/core/testing';
import type { Browser, Page } from 'playwright-core';
import { envFor, type ServerProcess, startServer } from '../processes.ts';
import { ARTIFACTS, type BrowserProblems, launchBrowser, runScenario, signInFirstTime, textOf } from './browser.ts';

/** Text extraction of the whole corpus, OCR included, on a slow CI machine. */
const EXTRACTION_TIMEOUT_MS = 5 * 60_000;
const MAX_UPLOAD_MB = 4;
// A 1×1 PNG: an image whose name promises a PDF.
const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: ServerProcess;
let browser: Browser;
let drop: () => Promise<void>;
let samples: Sample[];
const dir = mkdtempSync(join(tmpdir(), 'docagent-e2e-documents-'));
const mismatched = join(dir, 'refused', 'invoice.pdf');
const oversized = join(dir, 'refused', 'too-big.txt');

before(async () => {
  samples = await buildSampleCorpus(join(dir, 'corpus'));
  mkdirSync(join(dir, 'refused'));
  writeFileSync(mismatched, PNG_BYTES);
  writeFileSync(oversized, 'too big to upload\n'.repeat(Math.ceil(((MAX_UPLOAD_MB + 1) * 1024 * 1024) / 18)));
  const target = await createTestDatabaseTarget({ dataDir: join(dir, 'data') });
  drop = target.drop;
  server = await startServer({ ...envFor(target.target), MAX_UPLOAD_MB: String(MAX_UPLOAD_MB) });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** Polls a condition that the page or the server reaches on its own time. */
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = EXTRACTION_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function rowOf(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
}

async function totalDocuments(page: Page, origin: string, orgId: string): Promise<number> {
  const response = await page.request.get(`${origin}/v0/orgs/${orgId}/documents?limit=1`);
  assert.equal(response.status(), 200, await response.text());
  return ((await response.json()) as { total_count: number }).total_count;
}

async function documentId(page: Page, name: string): Promise<string> {
  const href = await rowOf(page, name).getByRole('link', { name, exact: true }).getAttribute('href');
  const id = href?.split('/').pop();
  assert.ok(id, `the row of ${name} links to its document`);
  return id;
}

/** The texts of all pages on the open text page, normalized. */
async function pageTexts(page: Page): Promise<string> {
  return normalize((await page.getByRole('region', { name: 'Extracted text' }).locator('pre').allTextContents()).join('\n'));
}

function assertHasPhrases(sample: Sample, text: string): void {
  for (const phrase of sample.expected) {
    assert.ok(text.includes(normalize(phrase)), `the text page of ${sample.name} shows "${phrase}"; it shows:\n${text}`);
  }
}

const ENGINE_LABELS: Record<Sample['expectedEngine'], RegExp> = {
  pdf_text: /PDF text layer/,
  ocr: /OCR \(Tesseract(\.js)?\)/,
  plain: /Text of the file/,
};

/** Opens the sample's text page from the table: one section per page, each naming its engine, with the expected phrases. */
async function checkTextPage(page: Page, sample: Sample): Promise<void> {
  await rowOf(page, sample.name).getByRole('link', { name: sample.name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: sample.name }).waitFor();
  // The middle panel shows the file; its Text view (remembered once chosen) shows the extracted text.
  const textView = page.getByRole('button', { name: 'Text', exact: true });
  if ((await textView.getAttribute('aria-pressed')) !== 'true') await textView.click();
  await page.getByRole('heading', { name: 'Page 1', exact: true }).waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  const sections = page.getByRole('region', { name: /^Page \d+$/ });
  assert.equal(await sections.count(), sample.pageCount, `the text page of ${sample.name} has a section per page`);
  for (const section of await sections.all()) {
    assert.match(await textOf(section), ENGINE_LABELS[sample.expectedEngine], `the engine of each page of ${sample.name}`);
  }
  assertHasPhrases(sample, await pageTexts(page));
}

async function backToDocuments(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'All documents' }).click();
  await page.getByRole('heading', { name: 'Documents' }).waitFor();
}

test(`documents upload through the drop zone, their text shows per page, and the list searches, filters and deletes (${testDatabaseKind()})`, {
  timeout: 15 * 60_000,
}, async () => {
  assert.ok(samples.length > 2 && samples.length <= 25, 'the corpus fits on one page of the table');
  await runScenario(browser, 'documents', { width: 1280, height: 800 }, walkThrough);
});

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  page.setDefaultTimeout(60_000);
  await signInFirstTime(page, server);
  await page.getByText('No documents yet').waitFor();
  // Requests from the test go to the origin the page signed in on, so that they carry its session cookie.
  const origin = new URL(page.url()).origin;
  const orgId = /\/orgs\/([^/]+)\/documents/.exec(page.url())?.[1];
  assert.ok(orgId, `the documents page is an organization page: ${page.url()}`);

  const dropZoneInput = page.getByLabel('Upload documents');
  await dropZoneInput.setInputFiles([...samples.map((sample) => sample.path), oversized]);
  const uploads = page.getByRole('region', { name: 'Uploads' });
  for (const sample of samples) {
    await uploads.getByRole('listitem', { name: sample.name }).getByText('Done').waitFor();
  }
  const oversizeError = uploads.getByRole('listitem', { name: 'too-big.txt' }).getByRole('alert');
  assert.match(await textOf(oversizeError), new RegExp(`"too-big\\.txt" is larger than the limit of ${MAX_UPLOAD_MB} MB`));

  for (const sample of samples) {
    const settled = rowOf(page, sample.name).getByText(/^(Text ready|Failed)$/);
    await settled.waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
    assert.equal(await textOf(settled), 'Text ready', `${sample.name}: ${await textOf(rowOf(page, sample.name))}`);
    const pages = await textOf(rowOf(page, sample.name).getByRole('cell').nth(5));
    assert.equal(pages, String(sample.pageCount), `the pages column of ${sample.name}`);
  }
  await page.screenshot({ path: join(ARTIFACTS, `documents-page-uploaded-${testDatabaseKind()}.png`), fullPage: true });

  // An image named like a PDF is refused on its own row, and stores nothing.
  const invoiceRows = await rowOf(page, 'invoice.pdf').count();
  await uploads.getByRole('button', { name: 'Clear finished' }).click();
  await uploads.waitFor({ state: 'detached' });
  await dropZoneInput.setInputFiles(mismatched);
  const mismatchError = uploads.getByRole('listitem', { name: 'invoice.pdf' }).getByRole('alert');
  assert.match(await textOf(mismatchError), /"invoice\.pdf" is named like a PDF but its content is an image/);
  assert.equal(await totalDocuments(page, origin, orgId), samples.length, 'the refused files added no document');
  assert.equal(await rowOf(page, 'invoice.pdf').count(), invoiceRows);
  await page.getByText(`1–${samples.length} of ${samples.length}`).waitFor();

  for (const sample of samples) {
    await checkTextPage(page, sample);
    await backToDocuments(page);
  }

  // The download serves the very bytes that were uploaded.
  const [first] = samples as [Sample];
  await rowOf(page, first.name).getByRole('link', { name: first.name, exact: true }).click();
  const download = await page.request.get(
    new URL((await page.getByRole('link', { name: 'Download' }).getAttribute('href')) ?? '', origin).toString(),
  );
  assert.equal(download.status(), 200);
  assert.ok(Buffer.from(await download.body()).equals(readFileSync(first.path)), 'the download is the original file');

  // Re-running extraction takes the page back through the pipeline to the same text.
  const firstId = page.url().split('/').pop();
  const metadataUrl = `${origin}/v0/orgs/${orgId}/ocr/download/metadata/${firstId}`;
  const before = (await (await page.request.get(metadataUrl)).json()) as { ocr_date: string };
  await page.getByRole('button', { name: 'Re-run text extraction' }).click();
  await until('the text is extracted again', async () => {
    const response = await page.request.get(metadataUrl);
    return response.ok() && ((await response.json()) as { ocr_date: string }).ocr_date !== before.ocr_date;
  });
  await page.getByRole('heading', { name: 'Page 1', exact: true }).waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  assertHasPhrases(first, await pageTexts(page));
  await page.screenshot({ path: join(ARTIFACTS, `document-text-page-${testDatabaseKind()}.png`), fullPage: true });
  await backToDocuments(page);

  // Search by name narrows the table, and clearing it brings every document back.
  const [, second, third] = samples as [Sample, Sample, Sample];
  const term = second.name.replace(/\.[^.]+$/, '');
  const matching = samples.filter((sample) => sample.name.toLowerCase().includes(term.toLowerCase()));
  const other = samples.find((sample) => !matching.includes(sample));
  assert.ok(other, `some sample name does not contain "${term}"`);
  const search = page.getByLabel('Search documents by name');
  await search.fill(term);
  await rowOf(page, other.name).waitFor({ state: 'detached' });
  for (const sample of matching) await rowOf(page, sample.name).waitFor();
  assert.equal(await page.getByRole('row').count(), matching.length + 1, 'only the matching documents are listed');
  assert.ok(new URL(page.url()).searchParams.get('name') === term, 'the search is kept in the URL');
  await search.fill('');
  await rowOf(page, other.name).waitFor();

  // A tag chip filters the table by its tag; removing the filter shows everything again.
  const me = (await (await page.request.get(`${origin}/v0/account/me`)).json()) as { csrf_token: string };
  const created = await page.request.post(`${origin}/v0/orgs/${orgId}/tags`, {
    headers: { 'x-csrf-token': me.csrf_token },
    data: { name: 'receipts', color: '#0a7f5a' },
  });
  assert.equal(created.status(), 200, await created.text());
  const receipts = ((await created.json()) as { id: string }).id;
  const tagged = await page.request.put(`${origin}/v0/orgs/${orgId}/documents/${await documentId(page, third.name)}`, {
    headers: { 'x-csrf-token': me.csrf_token },
    data: { tag_ids: [receipts] },
  });
  assert.equal(tagged.status(), 200, await tagged.text());
  await page.reload();
  await rowOf(page, third.name).getByRole('button', { name: 'Filter by tag receipts' }).click();
  await rowOf(page, first.name).waitFor({ state: 'detached' });
  assert.equal(await page.getByRole('row').count(), 2, 'only the tagged document is listed');
  await page.getByRole('button', { name: 'Remove the filter by tag receipts' }).click();
  await page.getByText(`1–${samples.length} of ${samples.length}`).waitFor();

  // Deleting asks first, then removes the row and the document.
  const doomed = samples.at(-1) as Sample;
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: `Delete ${doomed.name}` }).click();
  await rowOf(page, doomed.name).waitFor({ state: 'detached' });
  await page.getByText(`1–${samples.length - 1} of ${samples.length - 1}`).waitFor();
  assert.equal(await totalDocuments(page, origin, orgId), samples.length - 1);

  await page.screenshot({ path: join(ARTIFACTS, `documents-page-${testDatabaseKind()}.png`) });
  await page.screenshot({ path: join(ARTIFACTS, `documents-page-full-${testDatabaseKind()}.png`), fullPage: true });

  // The refused uploads are the only failed requests.
  problems.allow(
    (problem) =>
      problem.kind === 'console' && problem.url.endsWith('/documents/multipart') && /status of (400|413)/.test(problem.text),
  );
}
