import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { RecordedRequest } from '@docagent/fake-llm';
import type { Page } from 'playwright-core';
import { api, type BrowserProblems, runScenario, signInFirstTime } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { screenshotBothThemes } from './workspace-checks.ts';

/**
 * Evaluation (issue 19): the prompt page's Evaluation tab says to verify results first when none
 * is, evaluates two revisions against verified results, shows fields × revisions with the changed
 * cells, and a difference leads to its document with the field focused.
 */

const PROMPT = 'Extract the invoice fields.';
const TRUTH: Record<string, Record<string, unknown>> = {
  'DOC-A': { invoice_number: 'INV-1', total: 1234.5, date: '2012-11-15' },
  'DOC-B': { invoice_number: 'INV-2', total: 99, date: '2013-01-02' },
  'DOC-C': { invoice_number: 'INV-3', total: 7, date: '2014-03-04' },
};
/** Revision 1 gets B's total wrong; revision 2 gets it right but A's date wrong. */
const FIRST: Record<string, Record<string, unknown>> = { ...TRUTH, 'DOC-B': { ...TRUTH['DOC-B'], total: 98 } };
const SECOND: Record<string, Record<string, unknown>> = { ...TRUTH, 'DOC-A': { ...TRUTH['DOC-A'], date: '2012-11-16' } };

function reply(request: RecordedRequest) {
  const body = JSON.stringify(request.body);
  if (!body.includes(PROMPT)) return { text: JSON.stringify({ summary: 'An invoice.' }) };
  const doc = Object.keys(TRUTH).find((marker) => body.includes(marker));
  const table = body.includes('REVISION-TWO') ? SECOND : FIRST;
  return { text: JSON.stringify(doc ? table[doc] : {}) };
}

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('evaluation');
  app.fake.setHandler(reply);
});
after(() => app?.close());

/** A write the shared `api` helper does not make (PUT), with the session's CSRF token. */
async function put(page: Page, path: string, body: unknown): Promise<{ prompt_revid?: string }> {
  const origin = new URL(page.url()).origin;
  const me = await page.request.get(`${origin}/v0/account/me`);
  const csrf = ((await me.json()) as { csrf_token: string }).csrf_token;
  const response = await page.request.fetch(`${origin}${path}`, {
    method: 'PUT',
    headers: { 'x-csrf-token': csrf },
    data: body,
  });
  assert.ok(response.ok(), `PUT ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as { prompt_revid?: string };
}

test(`Evaluation: two revisions, fields × revisions, a difference opened on its document (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'evaluation', { width: 1280, height: 720 }, walkThrough);
});

async function walkThrough(page: Page, problems: BrowserProblems): Promise<void> {
  await signInFirstTime(page, app.server);
  const orgId = /\/orgs\/([^/]+)\//.exec(page.url())?.[1];
  assert.ok(orgId, `an organization page: ${page.url()}`);
  const org = `/v0/orgs/${orgId}`;
  const documents = Object.keys(TRUTH).map((marker) => ({
    name: `invoice-${marker.slice(-1).toLowerCase()}.txt`,
    content: Buffer.from(`Invoice ${marker}`).toString('base64'),
  }));
  const uploaded = await api<{ documents: Array<{ document_id: string }> }>(page, 'POST', `${org}/documents`, { documents });
  const ids = uploaded.documents.map((d) => d.document_id);
  for (const id of ids) {
    for (;;) {
      const doc = await api<{ state: string }>(page, 'GET', `${org}/documents/${id}?include_content=false`);
      if (['llm_completed', 'llm_failed'].includes(doc.state)) break;
      await page.waitForTimeout(200);
    }
  }
  const prompt = await api<{ prompt_id: string; prompt_revid: string }>(page, 'POST', `${org}/prompts`, {
    name: 'Invoice fields',
    content: PROMPT,
  });
  const first = prompt.prompt_revid;
  await page.goto(new URL(`/orgs/${orgId}/prompts/${prompt.prompt_id}?tab=evaluation`, page.url()).toString());

  // No verified document yet: a notice, not an error (the browser logs the 409 it answers).
  problems.allow((p) => p.kind === 'console' && p.text.includes('409') && (p.url ?? '').endsWith('/evaluations'));
  const region = page.getByRole('region', { name: 'Evaluation' });
  await region.getByRole('button', { name: 'Evaluate' }).click();
  await region
    .getByRole('status')
    .getByText(/no document has a verified result/)
    .waitFor();

  // Revision 1's results, corrected and verified: the truth. Then a second revision.
  for (const [index, marker] of Object.keys(TRUTH).entries()) {
    const id = ids[index] as string;
    await api(page, 'POST', `${org}/llm/run/${id}?prompt_revid=${first}`);
    await put(page, `${org}/llm/result/${id}?prompt_revid=${first}`, { updated_llm_result: TRUTH[marker], is_verified: true });
  }
  const second = await put(page, `${org}/prompts/${prompt.prompt_id}`, { content: `${PROMPT} REVISION-TWO` });
  assert.notEqual(second.prompt_revid, first);
  await page.reload();

  const evaluations = region.getByRole('list', { name: 'Evaluations' });
  await region.getByRole('combobox', { name: 'Version to evaluate' }).selectOption({ label: 'Version 1' });
  await region.getByRole('button', { name: 'Evaluate' }).click();
  await evaluations.getByText(/3 of 3 documents · 88\.9 % correct/).waitFor({ timeout: 60_000 });
  await region.getByRole('combobox', { name: 'Version to evaluate' }).selectOption({ label: 'Version 2 (latest)' });
  await region.getByRole('button', { name: 'Evaluate' }).click();
  await evaluations.getByText('finished').nth(1).waitFor({ timeout: 60_000 });

  const table = region.getByRole('table', { name: 'Accuracy by field' });
  await table.getByRole('columnheader', { name: 'Version 2', exact: true }).waitFor();
  const rowText = async (name: string) =>
    (
      await table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
        .locator('th, td')
        .allTextContents()
    )
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
  assert.equal(await rowText('invoice_number'), 'invoice_number 100 % 3/3 100 % 3/3');
  assert.equal(await rowText('total'), 'total 66.7 % 2/3 100 % 3/3 ▲(better than the version before)');
  assert.equal(await rowText('date'), 'date 100 % 3/3 66.7 % 2/3 ▼(worse than the version before)');
  assert.match(await rowText('Overall'), /^Overall 88\.9 % 8\/9 88\.9 % 8\/9$/);
  await screenshotBothThemes(page, 'evaluation-table-1280x720');
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshotBothThemes(page, 'evaluation-table-1440x900');

  // Version 1's total: B's wrong answer, and a link to B with the field focused.
  await table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'total', exact: true }) })
    .getByRole('button')
    .first()
    .click();
  const differences = region.getByRole('list', { name: 'Differences' });
  await region.getByText('Differences in total · version 1').waitFor();
  assert.equal(await differences.getByRole('listitem').count(), 1);
  const item = differences.getByRole('listitem').first();
  assert.match((await item.textContent()) ?? '', /invoice-b\.txt\s*total\s*Expected\s*99\s*Answered\s*98/);
  await screenshotBothThemes(page, 'evaluation-difference-1440x900');
  await item.getByRole('link', { name: 'invoice-b.txt' }).click();
  await page.waitForURL(/\/documents\/[^/?]+\?field=total/);
  const focused = page.locator('[data-citation-path="total"] :focus');
  await focused.waitFor({ timeout: 30_000 });
  await screenshotBothThemes(page, 'evaluation-document-field-1440x900');
}
