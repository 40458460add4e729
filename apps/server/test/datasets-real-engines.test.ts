import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PythonSandbox } from '@docagent/core';
import { bearer, json, seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * The dataset routes on this build's own executors: DuckDB in a child process per organization,
 * and Python in bubblewrap where it is installed (the suite's other files use fakes).
 */

let t: TestApp;
let member: Awaited<ReturnType<typeof seedMember>>;
let datasetId: string;

before(async () => {
  t = await startTestApp();
  member = await seedMember(t.database, 'engines');
  const res = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${member.org.id}/documents`,
    headers: bearer(member.token),
    payload: {
      documents: [
        {
          name: 'orders.csv',
          content: Buffer.from('id;region;amount\n1;north;9.5\n2;south;10\n3;north;2.5\n').toString('base64'),
        },
      ],
      create_dataset: 'Orders',
    },
  });
  assert.equal(res.statusCode, 200, res.body);
  datasetId = json<{ dataset: { dataset_id: string } }>(res).dataset.dataset_id;
});
after(() => t.close());

const run = async (body: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v0/orgs/${member.org.id}/runs`,
    headers: bearer(member.token),
    payload: { dataset_id: datasetId, ...body },
  });
  assert.equal(res.statusCode, 200, res.body);
  return json<{ status: string; result: { rows: unknown[][] } | null; error: { code: string; message: string } | null }>(res);
};

test('the schema has real sample rows, typed by DuckDB', async () => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v0/orgs/${member.org.id}/datasets/${datasetId}/schema`,
    headers: bearer(member.token),
  });
  assert.equal(res.statusCode, 200, res.body);
  const [table] = json<{ tables: Array<{ table_name: string; sample_rows: unknown[]; sample_error: string | null }> }>(
    res,
  ).tables;
  assert.equal(table?.table_name, 'orders');
  assert.equal(table?.sample_error, null);
  assert.deepEqual(table?.sample_rows, [
    { id: 1, region: 'north', amount: 9.5 },
    { id: 2, region: 'south', amount: 10 },
    { id: 3, region: 'north', amount: 2.5 },
  ]);
});

test('SQL and plans run over the stored table; COPY is rejected by the policy', async () => {
  const summed = await run({
    query_type: 'sql',
    sql: 'SELECT region, sum(amount) AS total FROM orders GROUP BY region ORDER BY region',
  });
  assert.equal(summed.status, 'succeeded', JSON.stringify(summed.error));
  assert.deepEqual(summed.result?.rows, [
    ['north', 12],
    ['south', 10],
  ]);
  const planned = await run({
    query_type: 'plan',
    plan: {
      table: 'orders',
      select: ['id'],
      filters: [{ column: 'region', operator: '=', value: 'north' }],
      order_by: [{ column: 'id' }],
    },
  });
  assert.equal(planned.status, 'succeeded', JSON.stringify(planned.error));
  assert.deepEqual(planned.result?.rows, [[1], [3]]);
  const copy = await run({ query_type: 'sql', sql: "COPY orders TO '/tmp/stolen.csv'" });
  assert.equal(copy.status, 'rejected');
  assert.equal(copy.error?.code, 'SQL_POLICY_VIOLATION');
});

test('Python sees each table as a DataFrame (or says what to install)', async () => {
  const result = await run({ query_type: 'python', python_code: 'result_df = orders[orders.region == "north"][["id"]]' });
  const missing = await new PythonSandbox().unavailableReason();
  if (missing !== null) {
    assert.equal(result.status, 'failed');
    assert.deepEqual(result.error, { code: 'FEATURE_DISABLED', message: missing });
    return;
  }
  assert.equal(result.status, 'succeeded', JSON.stringify(result.error));
  assert.deepEqual(result.result?.rows, [[1], [3]]);
});
