import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { Locator, Page } from 'playwright-core';
import { api, EXTRACTION_TIMEOUT_MS, runScenario, signInFirstTime, waitForPrompts } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { requestedSchema } from './responses-requests.ts';
import { screenshotBothThemes } from './workspace-checks.ts';

/**
 * Citations (issue 19): on a real invoice PDF, hovering a field draws its box on the right page,
 * clicking the box focuses the field, a value the document does not have is marked "review" and
 * "not found in the document", and the prompt's results export as CSV.
 */

/** The invoices with ground truth live beside the repository: ../shared/data/invoices (or DOCAGENT_INVOICES_DIR). */
const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const INVOICES = process.env.DOCAGENT_INVOICES_DIR ?? resolve(REPO_ROOT, '..', 'shared', 'data', 'invoices');
const INVOICE_NAME = 'invoice_Sheri Gordon_1260';
const PDF = join(INVOICES, 'docs', `${INVOICE_NAME}.pdf`);
const LABELS = join(INVOICES, 'labels', `${INVOICE_NAME}.json`);
const NO_INVOICES = existsSync(PDF) && existsSync(LABELS) ? false : `the invoice ${PDF} and its labels are not there`;

const MODEL = 'openai:gpt-4.1-mini';
/** Printed nowhere in the invoice. */
const INVENTED = 'PO-ZX-99731';
const SUMMARY = { document_type: 'invoice', summary: 'An invoice from SuperStore.', key_facts: ['SuperStore'] };

/** The fake model's answer: the invoice's total, order id and date as its labels have them, and an invented order number. */
function invoiceAnswer(): { total: number; order_id: string; date: string; purchase_order: string } {
  const labels = JSON.parse(readFileSync(LABELS, 'utf8')) as { total: string; order_id: string; date: string };
  return { total: Number(labels.total), order_id: labels.order_id, date: labels.date, purchase_order: INVENTED };
}

let app: FakeLlmApp;

before(async () => {
  if (NO_INVOICES) return;
  app = await startFakeLlmApp('citations');
  app.fake.setHandler((request) => {
    const properties = requestedSchema(request)?.properties;
    return { text: JSON.stringify(properties?.order_id ? invoiceAnswer() : SUMMARY) };
  });
});
after(() => app?.close());

test(`Citations: hover a field to see its box, click the box, see the review marks, export CSV (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
  skip: NO_INVOICES,
}, async () => {
  await runScenario(app.browser, 'citations', { width: 1280, height: 720 }, walkThrough);
});

/** Whether the box lies inside the other (a pixel of rounding allowed). */
function inside(inner: { x: number; y: number; width: number; height: number }, outer: typeof inner): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/** The text of the elements that describe the input (its marks, its hints). */
async function descriptionOf(page: Page, input: Locator): Promise<string> {
  const ids = (await input.getAttribute('aria-describedby'))?.split(' ').filter(Boolean) ?? [];
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** RFC 4180 rows (quoted fields with commas, quotes and line breaks), the BOM dropped. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1];
  assert.ok(orgId, `an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const origin = new URL(page.url()).origin;
  const answer = invoiceAnswer();

  // A schema and a prompt for invoices, run on the tagged PDF as it is uploaded.
  const tag = await api<{ id: string }>(page, 'POST', `${org}/tags`, { name: 'invoices' });
  const schema = await api<{ schema_id: string }>(page, 'POST', `${org}/schemas`, {
    name: 'Invoice fields',
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'invoice',
        schema: {
          type: 'object',
          properties: {
            total: { type: 'number' },
            order_id: { type: 'string' },
            date: { type: 'string' },
            purchase_order: { type: 'string' },
          },
          required: ['total', 'order_id', 'date', 'purchase_order'],
          additionalProperties: false,
        },
        strict: true,
      },
    },
  });
  const prompt = await api<{ prompt_id: string; prompt_revid: string }>(page, 'POST', `${org}/prompts`, {
    name: 'Read invoice',
    content: 'Find the total, the order id, the date and the purchase order number.',
    schema_id: schema.schema_id,
    schema_version: null,
    model: MODEL,
    tag_ids: [tag.id],
  });
  const { documents } = await api<{ documents: { document_id: string }[] }>(page, 'POST', `${org}/documents`, {
    documents: [{ name: `${INVOICE_NAME}.pdf`, content: readFileSync(PDF).toString('base64'), tag_ids: [tag.id] }],
  });
  const documentId = documents[0]?.document_id;
  assert.ok(documentId, 'the upload stored the document');
  await waitForPrompts(page, `${org}/documents/${documentId}`);
  // The server located the total on page 1, and found no invented order number.
  const result = await api<{
    citations?: Array<{ path: string; page: number | null; match: string; text: string }>;
    fields_to_review?: string[];
  }>(page, 'GET', `${org}/llm/result/${documentId}?prompt_revid=${prompt.prompt_revid}`);
  const cited = (path: string) => result.citations?.find((citation) => citation.path === path);
  assert.equal(cited('total')?.page, 1, `the total's citation: ${JSON.stringify(cited('total'))}`);
  assert.equal(cited('purchase_order')?.match, 'not_found');
  assert.deepEqual(result.fields_to_review, ['purchase_order']);

  // The document page: the result's fields, the first page of the PDF.
  await page.goto(`${origin}/orgs/${orgId}/documents/${documentId}`);
  await page.getByRole('heading', { level: 1, name: `${INVOICE_NAME}.pdf` }).waitFor();
  const form = page.getByRole('form', { name: 'Read invoice result' });
  await form.waitFor({ timeout: EXTRACTION_TIMEOUT_MS });
  const total = form.getByLabel('total', { exact: true });
  assert.equal(await total.inputValue(), String(answer.total));
  const page1 = page.getByRole('img', { name: /^Page 1 of \d+$/ });
  await page1.waitFor();

  // Hovering the total draws its box on page 1, inside the page.
  await total.hover();
  const overlay = page.getByRole('region', { name: 'Citation highlight' });
  const box = overlay.getByRole('button', { name: 'Go to the field total', exact: true }).first();
  await box.waitFor();
  await page1.waitFor();
  const pageBounds = await page1.boundingBox();
  const boxBounds = await box.boundingBox();
  assert.ok(pageBounds && boxBounds, 'the page and the box are drawn');
  assert.ok(inside(boxBounds, pageBounds), `the box ${JSON.stringify(boxBounds)} is inside page 1 ${JSON.stringify(pageBounds)}`);
  assert.ok(boxBounds.width > 4 && boxBounds.height > 4, `the box has a size: ${JSON.stringify(boxBounds)}`);
  // It holds the words as printed, in the page's lower right (the totals under the table).
  assert.equal(await box.getAttribute('title'), `total: ${cited('total')?.text}`);
  assert.equal(Number(cited('total')?.text.replace(/[^\d.]/g, '')), answer.total, 'the printed total is the answer');
  assert.ok(
    boxBounds.x > pageBounds.x + pageBounds.width / 2 && boxBounds.y > pageBounds.y + pageBounds.height / 4,
    `the total's box is in the right half, under the header: ${JSON.stringify(boxBounds)} on ${JSON.stringify(pageBounds)}`,
  );
  assert.equal(await total.getAttribute('aria-describedby'), null, 'an exact total has no marks');
  await screenshotBothThemes(page, 'citations-total-1280x720');
  await page.setViewportSize({ width: 1440, height: 900 });
  await box.waitFor();
  await screenshotBothThemes(page, 'citations-total-1440x900');

  // Clicking the box moves the focus to the total.
  const focused = () => total.evaluate((element) => element === element.ownerDocument.activeElement);
  assert.equal(await focused(), false, 'pointing at the total does not focus it');
  await box.click();
  await total.and(page.locator(':focus')).waitFor();

  // The invented value is marked; the ones the invoice prints are not.
  const invented = form.getByLabel('purchase_order', { exact: true });
  assert.equal(await invented.inputValue(), INVENTED);
  const marks = await descriptionOf(page, invented);
  assert.match(marks, /not found in the document/, `the invented value's marks: ${marks}`);
  assert.match(marks, /review/, `the invented value's marks: ${marks}`);
  const marked = form.locator('[data-citation-path="purchase_order"]');
  await marked.getByText('review', { exact: true }).waitFor();
  await marked.getByText('not found in the document', { exact: true }).waitFor();
  assert.equal(await form.getByText('review', { exact: true }).count(), 1, 'only the invented value is to review');
  // Pointing at it shows no box: there is nothing to show.
  await invented.hover();
  await overlay.waitFor({ state: 'detached' });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The prompt page exports the result as CSV: the row's total is the model's.
  await page.goto(`${origin}/orgs/${orgId}/prompts/${prompt.prompt_id}`);
  await page.getByRole('heading', { level: 1, name: 'Read invoice' }).waitFor();
  await page.locator('summary', { hasText: 'Export' }).click();
  const menu = page.getByRole('dialog', { name: 'Export results' });
  const [download] = await Promise.all([page.waitForEvent('download'), menu.getByRole('link', { name: /^CSV/ }).click()]);
  const text = readFileSync(await download.path(), 'utf8');
  const [header, ...rows] = parseCsv(text);
  assert.ok(header, `the CSV has a header: ${text.slice(0, 200)}`);
  assert.equal(rows.length, 1, `one row, for the one document: ${text}`);
  const column = (name: string) => header.indexOf(name);
  assert.ok(column('total') >= 0, `a total column: ${header.join(',')}`);
  assert.equal(Number(rows[0]?.[column('total')]), answer.total);
  assert.equal(rows[0]?.[column('order_id')], answer.order_id);
  assert.equal(rows[0]?.[column('purchase_order')], INVENTED);
}
