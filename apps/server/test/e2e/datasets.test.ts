import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { testDatabaseKind } from '@docagent/core/testing';
import type { RecordedRequest } from '@docagent/fake-llm';
import ExcelJS from 'exceljs';
import type { Locator, Page } from 'playwright-core';
import { assertFitsWindow, runScenario, signInFirstTime, textOf, untilStored } from './browser.ts';
import { type FakeLlmApp, startFakeLlmApp } from './fake-llm-app.ts';
import { lastUserText, outputsOfTurn } from './responses-requests.ts';
import { agentPanel, screenshot, screenshotBothThemes } from './workspace-checks.ts';

/**
 * The datasets pages (issue 17): CSV and XLSX files uploaded as tables, a table's rows scrolled
 * through a virtualised grid, an SQL query's result sorted, charted and downloaded, and the run
 * opened again from the history; then the agent panel answers a question with a query of its own.
 */

const ROWS = 5000;
const REGIONS = ['east', 'north', 'south', 'west'];
const ROW_HEIGHT = 28;

/** id, region, month, amount: the region cycles, the amount is a small integer so that sums are exact. */
function salesCsv(): { text: string; totals: Map<string, number> } {
  const totals = new Map<string, number>();
  const lines = ['id,region,month,amount'];
  for (let i = 0; i < ROWS; i++) {
    const region = REGIONS[i % REGIONS.length] ?? '';
    const amount = (i * 7) % 97;
    totals.set(region, (totals.get(region) ?? 0) + amount);
    lines.push(`${i + 1},${region},2024-${String((i % 12) + 1).padStart(2, '0')}-01,${amount}`);
  }
  return { text: `${lines.join('\n')}\n`, totals };
}

async function targetsXlsx(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Targets').addRows([['region', 'target'], ...REGIONS.map((region, i) => [region, 1000 * (i + 1)])]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const QUESTION = 'What are the total sales by region?';
const AGENT_SQL = 'SELECT region, sum(amount) AS total FROM sales GROUP BY region ORDER BY region';

/** The analyst's script: a group by over the uploaded table, then the totals it returned as a Markdown table. */
function analystReply(request: RecordedRequest) {
  if (!lastUserText(request).includes(QUESTION)) return { text: 'I do not know that one.' };
  const [output] = outputsOfTurn(request);
  if (output === undefined) return { toolCalls: [{ name: 'execute_sql', arguments: { sql: AGENT_SQL } }] };
  const { rows } = JSON.parse(output) as { rows: [string, number][] };
  const lines = rows.map(([region, total]) => `| ${region} | ${total} |`);
  return { text: ['Total sales by region:', '', '| Region | Total |', '| --- | --- |', ...lines].join('\n') };
}

let app: FakeLlmApp;

before(async () => {
  app = await startFakeLlmApp('datasets');
  app.fake.setHandler(analystReply);
});
after(() => app?.close());

test(`Datasets: upload CSV and XLSX, scroll the preview, query, sort, chart, download, history (${testDatabaseKind()})`, {
  timeout: 10 * 60_000,
}, async () => {
  await runScenario(app.browser, 'datasets', { width: 1280, height: 720 }, walkThrough);
});

const uploadDone = (page: Page, name: string) =>
  page.getByRole('listitem', { name, exact: true }).getByText('Done', { exact: true }).waitFor();

async function resultRows(grid: Locator): Promise<string[][]> {
  const rows = grid.locator('tbody tr');
  // A table can be in the page a moment before its rows are.
  await rows.first().waitFor();
  const cells: string[][] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    cells.push((await rows.nth(i).locator('td').allTextContents()).map((text) => text.trim()));
  }
  return cells;
}

async function walkThrough(page: Page): Promise<void> {
  await signInFirstTime(page, app.server);
  const sales = salesCsv();

  // The list page: a new dataset named as typed, then a workbook into it (the chooser has moved to it).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datasets', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Datasets' }).waitFor();
  // The built-in dataset of extraction results is there from the start, and takes no files.
  await page.getByRole('row').filter({ hasText: 'Built in' }).getByRole('link', { name: 'extractions' }).waitFor();
  assert.deepEqual(await page.getByLabel('Into', { exact: true }).locator('option').allTextContents(), ['A new dataset']);
  await page.getByLabel("New dataset's name").fill('Sales');
  await page
    .getByLabel('Upload tables', { exact: true })
    .setInputFiles({ name: 'sales.csv', mimeType: 'text/csv', buffer: Buffer.from(sales.text) });
  await uploadDone(page, 'sales.csv');
  assert.equal(await page.getByLabel('Into', { exact: true }).locator('option:checked').textContent(), 'Sales');
  await page.getByLabel('Upload tables', { exact: true }).setInputFiles({
    name: 'targets.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await targetsXlsx(),
  });
  await uploadDone(page, 'targets.xlsx');
  const listed = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Sales', exact: true }) });
  await listed.getByRole('cell', { name: (ROWS + REGIONS.length).toLocaleString('en-US'), exact: true }).waitFor();
  await screenshot(page, 'datasets-list-1280x720');

  // The dataset page: its tables, ready, with their row counts and columns.
  await listed.getByRole('link', { name: 'Sales', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Sales' }).waitFor();
  const tables = page.getByRole('list', { name: 'Tables' });
  for (const name of ['sales', 'targets']) {
    await tables.getByRole('listitem').filter({ hasText: name }).getByText('Ready').waitFor();
  }
  await tables.getByText(`${ROWS.toLocaleString('en-US')} rows`).waitFor();
  const columns = await page.getByRole('list', { name: 'Columns of sales' }).getByRole('listitem').allTextContents();
  assert.deepEqual(columns, ['idBIGINT', 'regionVARCHAR', 'monthDATE', 'amountBIGINT']);

  // The preview grid renders only what is in view, and reads a later page once scrolled there.
  const grid = page.getByRole('table', { name: 'Rows of sales' });
  await grid.getByRole('cell', { name: '2024-01-01' }).first().waitFor();
  const rendered = await grid.locator('tbody tr').count();
  assert.ok(rendered > 10 && rendered < 80, `only the rows in view are rendered (${rendered})`);
  // A string, as this file is type-checked without the DOM's types: the grid's scroller is the table's parent.
  await page.evaluate(
    `document.querySelector('table[aria-label="Rows of sales"]').parentElement.scrollTop = ${4000 * ROW_HEIGHT}`,
  );
  const later = grid.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: '4,001', exact: true }) });
  await later.getByRole('cell', { name: '4001', exact: true }).waitFor();
  assert.deepEqual(
    (await later.locator('td').allTextContents()).map((text) => text.trim()),
    ['4001', 'east', '2024-05-01', String((4000 * 7) % 97)],
  );
  await page.getByText(/^Rows 4,001–4,0\d\d of 5,000$/).waitFor();
  await assertFitsWindow(page, 'the dataset page at 1280×720');
  await screenshotBothThemes(page, 'datasets-page-1280x720');
  await screenshot(page, 'datasets-page-1440x900', { width: 1440, height: 900 });
  await assertFitsWindow(page, 'the dataset page at 1440×900');
  await page.setViewportSize({ width: 1280, height: 720 });

  // An SQL query: its result as a table, then as a chart.
  await page.getByRole('tab', { name: 'Query' }).click();
  const sql = 'SELECT region, sum(amount) AS total\nFROM sales\nGROUP BY region\nORDER BY region';
  await page.getByLabel('SQL query').fill(sql);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('table', { name: 'Query result' });
  await result.getByRole('cell', { name: 'west' }).waitFor();
  const byRegion = REGIONS.map((region) => [region, String(sales.totals.get(region))]);
  assert.deepEqual(await resultRows(result), byRegion);

  await page.getByRole('button', { name: 'Chart', exact: true }).click();
  const bars = page.getByRole('img', { name: 'Bar chart of total by region' });
  await bars.waitFor();
  assert.equal(await bars.locator('rect').count(), REGIONS.length);
  await screenshotBothThemes(page, 'datasets-result-chart-1280x720');
  await page.getByRole('button', { name: 'Line', exact: true }).click();
  await page.getByRole('img', { name: 'Line chart of total by region' }).locator('polyline').waitFor();
  await page.getByRole('button', { name: 'Table', exact: true }).click();

  // Sorted by a column's header, highest total first; the downloads follow the order shown.
  const totalHeader = result.getByRole('columnheader', { name: /total/ });
  await totalHeader.getByRole('button').click();
  assert.equal(await totalHeader.getAttribute('aria-sort'), 'ascending');
  await totalHeader.getByRole('button').click();
  assert.equal(await totalHeader.getAttribute('aria-sort'), 'descending');
  const descending = [...byRegion].sort((a, b) => Number(b[1]) - Number(a[1]));
  assert.deepEqual(await resultRows(result), descending);
  // Away from the header, whose hover would be in the pictures.
  await page.mouse.move(0, 0);
  await screenshotBothThemes(page, 'datasets-result-1280x720');
  await screenshot(page, 'datasets-result-1440x900', { width: 1440, height: 900 });
  await page.setViewportSize({ width: 1280, height: 720 });

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.match(csv.suggestedFilename(), /^run-\w+\.csv$/);
  assert.equal(
    readFileSync(await csv.path(), 'utf8'),
    `region,total\r\n${descending.map((row) => row.join(',')).join('\r\n')}\r\n`,
  );
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download XLSX' }).click()]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await xlsx.path());
  const sheet = book.getWorksheet('Result');
  const values = sheet
    ?.getSheetValues()
    .slice(1)
    .map((row) => (Array.isArray(row) ? row.slice(1) : []));
  assert.deepEqual(values, [['region', 'total'], ...descending.map(([region, total]) => [region, Number(total)])]);

  // Python: the table as a DataFrame, or the reason it cannot run on this machine.
  await page.getByRole('tab', { name: 'Python' }).click();
  await page.getByLabel('Python code').fill('result_df = targets.sort_values("target")');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const python = page.getByRole('table', { name: 'Query result' }).getByRole('cell', { name: '4000', exact: true });
  const disabled = page.getByRole('alert').filter({ hasText: 'FEATURE_DISABLED' });
  await python.or(disabled).first().waitFor();

  // The history lists both runs; the SQL one opens with its query and its result.
  await page.getByRole('tab', { name: 'History' }).click();
  const runs = page.getByRole('region', { name: 'Runs' }).getByRole('listitem');
  await runs.nth(1).waitFor();
  assert.equal(await runs.count(), 2);
  await runs.filter({ hasText: 'SQL' }).getByRole('button').click();
  const run = page.getByRole('region', { name: 'Run', exact: true });
  await run.getByText('GROUP BY region').waitFor();
  assert.equal((await textOf(run.locator('pre'))).trim(), sql);
  assert.deepEqual(await resultRows(run.getByRole('table', { name: 'Query result' })), byRegion);
  assert.match(page.url(), /[?&]tab=history&run=\w+/);
  await assertFitsWindow(page, 'the history at 1280×720');
  await screenshot(page, 'datasets-history-1280x720');

  await askTheAgent(page, byRegion);

  // A new, empty dataset opens on its page, ready for files.
  await page.getByRole('link', { name: 'All datasets' }).click();
  await page.getByRole('button', { name: 'New dataset' }).click();
  const form = page.getByRole('form', { name: 'New dataset' });
  await form.getByLabel('Name', { exact: true }).fill('Inventory');
  await form.getByLabel('Description').fill('Stock counts per warehouse');
  await form.getByRole('button', { name: 'Create dataset' }).click();
  await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
  await page.getByText('Stock counts per warehouse').waitFor();
  await page.getByText('This dataset has no tables yet.', { exact: false }).waitFor();
  await page.getByLabel('Upload tables', { exact: true }).waitFor({ state: 'attached' });
}

/** The agent panel beside the dataset: a question, the agent's query shown as a table in its card, its answer, its run in the history. */
async function askTheAgent(page: Page, byRegion: string[][]): Promise<void> {
  const agent = agentPanel(page);
  await agent.say(QUESTION);
  const card = agent.log.getByRole('region', { name: 'Tool call execute_sql' });
  const rows = card.getByRole('table', { name: 'Rows of the result' });
  await rows.waitFor();
  assert.deepEqual(await resultRows(rows), byRegion);
  await card.getByText(`${REGIONS.length} rows`, { exact: true }).waitFor();
  await card.getByText(AGENT_SQL, { exact: true }).waitFor();
  const answer = agent.log.getByText('Total sales by region:');
  await answer.waitFor();
  const answerTable = agent.log
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Region', exact: true }) });
  assert.deepEqual(await resultRows(answerTable), byRegion);
  await agent.idle.waitFor();

  // The agent's run is recorded with the person's: the history lists it, first.
  const runs = page.getByRole('region', { name: 'Runs' }).getByRole('listitem');
  await runs.nth(2).waitFor();
  assert.equal(await runs.count(), 3);
  await runs.first().getByText(QUESTION).waitFor();
  // Opened from the history, the agent's result is a grid, a chart and a download like any run.
  await runs.first().getByRole('button').click();
  const run = page.getByRole('region', { name: 'Run', exact: true });
  await run.locator('pre', { hasText: AGENT_SQL }).waitFor();
  // The run is read again when it opens: its table may be drawn twice, so it is read until it holds the rows.
  await untilStored(
    async () => (await resultRows(run.getByRole('table', { name: 'Query result' }))).sort(),
    [...byRegion].sort(),
    "the agent's run opens with its result",
  );
  await run.getByRole('button', { name: 'Chart', exact: true }).click();
  await run.getByRole('img', { name: /chart of total by region/ }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    run.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const downloaded = readFileSync(await download.path(), 'utf8');
  assert.match(downloaded, /^region,total\r?\n/, `the CSV of the agent's result: ${downloaded.slice(0, 80)}`);
  await run.getByRole('button', { name: 'Table', exact: true }).click();
  await assertFitsWindow(page, 'the dataset page with the agent at 1280×720');
  await screenshot(page, 'datasets-agent-1280x720');
  await screenshot(page, 'datasets-agent-1440x900', { width: 1440, height: 900 });
  await page.setViewportSize({ width: 1280, height: 720 });
}
