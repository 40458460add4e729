import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createApiToken, createUser, monthOf, newId, parseModelId, recordUsage, setMembership, tables } from '@docagent/core';
import { bearer, json, PASSWORD, seedMember, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof seedMember>>;
let other: Awaited<ReturnType<typeof seedMember>>;

interface Totals {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
}
interface UsageBody {
  month: string;
  totals: Totals;
  by_model: Array<Totals & { model: string }>;
  by_operation: Array<Totals & { operation: string }>;
}

const usage = (query = '', org = admin.org.id) => `/v0/orgs/${org}/usage${query}`;
const get = (url: string, token = admin.token) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

/** One ledger row at a given time, as an LLM call would leave it. */
async function ledger(
  orgId: string,
  at: string,
  row: { model: string; operation: string; input: number; output: number; cost: number | null },
) {
  await t.database.db.insert(tables.usageLedger).values({
    id: newId(),
    orgId,
    model: row.model,
    operation: row.operation,
    inputTokens: row.input,
    outputTokens: row.output,
    cachedTokens: Math.floor(row.input / 10),
    reasoningTokens: 0,
    costUsd: row.cost,
    createdAt: new Date(at),
  });
}

before(async () => {
  t = await startTestApp();
  admin = await seedMember(t.database, 'ledger');
  other = await seedMember(t.database, 'elsewhere');
  const org = admin.org.id;
  await ledger(org, '2025-03-01T00:00:00Z', {
    model: 'openai:gpt-4.1-mini',
    operation: 'extraction',
    input: 1000,
    output: 200,
    cost: 0.5,
  });
  await ledger(org, '2025-03-15T12:00:00Z', {
    model: 'openai:gpt-4.1-mini',
    operation: 'agent',
    input: 3000,
    output: 400,
    cost: 1.25,
  });
  await ledger(org, '2025-03-31T23:59:59Z', {
    model: 'anthropic:claude-sonnet-4-5',
    operation: 'agent',
    input: 500,
    output: 100,
    cost: 2,
  });
  await ledger(org, '2025-03-20T00:00:00Z', { model: 'mystery:model', operation: 'agent', input: 10, output: 5, cost: null });
  // Neighbouring months, and another organization in the same month, stay out of March.
  await ledger(org, '2025-02-28T23:59:59Z', { model: 'openai:gpt-4.1-mini', operation: 'agent', input: 7, output: 7, cost: 9 });
  await ledger(org, '2025-04-01T00:00:00Z', { model: 'openai:gpt-4.1-mini', operation: 'agent', input: 7, output: 7, cost: 9 });
  await ledger(other.org.id, '2025-03-10T00:00:00Z', {
    model: 'openai:gpt-4.1-mini',
    operation: 'agent',
    input: 7,
    output: 7,
    cost: 9,
  });
});
after(() => t.close());

test('a month of usage: totals, per model and per operation, biggest spend first, calls with no price counted apart', async () => {
  const res = await get(usage('?month=2025-03'));
  assert.equal(res.statusCode, 200, res.body);
  const body = json<UsageBody>(res);
  assert.equal(body.month, '2025-03');
  assert.deepEqual(body.totals, {
    calls: 4,
    input_tokens: 4510,
    output_tokens: 705,
    cached_tokens: 451,
    reasoning_tokens: 0,
    cost_usd: 3.75,
    unpriced_calls: 1,
  });
  assert.deepEqual(
    body.by_model.map((m) => [m.model, m.calls, m.input_tokens, m.output_tokens, m.cost_usd, m.unpriced_calls]),
    [
      ['anthropic:claude-sonnet-4-5', 1, 500, 100, 2, 0],
      ['openai:gpt-4.1-mini', 2, 4000, 600, 1.75, 0],
      ['mystery:model', 1, 10, 5, 0, 1],
    ],
  );
  assert.deepEqual(
    body.by_operation.map((o) => [o.operation, o.calls, o.input_tokens + o.output_tokens, o.cost_usd]),
    [
      ['agent', 3, 4015, 3.25],
      ['extraction', 1, 1200, 0.5],
    ],
  );
});

test('a month with no calls is zeros and empty lists; no month means this month', async () => {
  const empty = json<UsageBody>(await get(usage('?month=2024-12')));
  assert.deepEqual(empty, {
    month: '2024-12',
    totals: {
      calls: 0,
      input_tokens: 0,
      output_tokens: 0,
      cached_tokens: 0,
      reasoning_tokens: 0,
      cost_usd: 0,
      unpriced_calls: 0,
    },
    by_model: [],
    by_operation: [],
  });

  await recordUsage(t.database.db, {
    orgId: admin.org.id,
    model: parseModelId('openai:gpt-4.1-mini'),
    operation: 'extraction',
    usage: { inputTokens: 1_000_000, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0 },
  });
  const now = json<UsageBody>(await get(usage()));
  assert.equal(now.month, monthOf(new Date()));
  assert.equal(now.totals.calls, 1);
  assert.equal(now.totals.cost_usd, 0.4, 'priced from the table: a million input tokens of gpt-4.1-mini');
});

test('a malformed month is refused with a sentence', async () => {
  for (const month of ['2025-13', '2025-3', 'march', '2025-03-01', '']) {
    const res = await get(usage(`?month=${encodeURIComponent(month)}`));
    assert.equal(res.statusCode, 400, `${month}: ${res.body}`);
    assert.match(json<{ detail: string }>(res).detail, /month/);
  }
});

test('only admins of the organization see its usage', async () => {
  const user = await createUser(t.database.db, { email: 'reader@example.test', password: PASSWORD });
  await setMembership(t.database.db, { orgId: admin.org.id, userId: user.id, role: 'user' });
  const token = (await createApiToken(t.database.db, { orgId: admin.org.id, name: 'reader', createdBy: user.id })).token;
  const refused = await get(usage('?month=2025-03'), token);
  assert.equal(refused.statusCode, 403);
  assert.match(json<{ detail: string }>(refused).detail, /Only an organization's admins can see its usage/);
  assert.equal((await get(usage('?month=2025-03', other.org.id))).statusCode, 404);
  const theirs = json<UsageBody>(await get(usage('?month=2025-03', other.org.id), other.token));
  assert.equal(theirs.totals.calls, 1, 'the other organization sees only its own call');
});
