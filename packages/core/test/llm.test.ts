import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { generateText } from 'ai';
import {
  assertWithinUsageLimit,
  callLlm,
  createOrganization,
  type Database,
  type DomainError,
  estimateCost,
  ModelRegistry,
  parseModelId,
  SecretBox,
  setOrgProvider,
  tables,
  updateOrgLlmSettings,
} from '../src/index.ts';
import { openTestDatabase } from '../src/testing/test-database.ts';

let database: Database;
let fake: FakeLlmServer;
const admin = (orgId: string) => ({ orgId, role: 'admin' as const, userId: null });

before(async () => {
  database = await openTestDatabase();
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
  await database.close();
});

const registry = (env: Record<string, string>, box?: SecretBox) =>
  new ModelRegistry(database.db, { env, secretBox: box, maxRetries: 0, timeoutMs: 10_000 });
const newOrg = async () => (await createOrganization(database.db, { name: `org ${Math.random()}` })).id;

describe('model ids', () => {
  test('provider:model, LiteLLM provider/model and DocRouter bare names', () => {
    assert.equal(parseModelId('openai:gpt-4.1-mini').id, 'openai:gpt-4.1-mini');
    assert.deepEqual(parseModelId('ollama:qwen3:8b'), { provider: 'ollama', model: 'qwen3:8b', id: 'ollama:qwen3:8b' });
    assert.equal(parseModelId('groq/llama-3.3-70b-versatile').id, 'groq:llama-3.3-70b-versatile');
    assert.equal(parseModelId('gpt-4o-mini').id, 'openai:gpt-4o-mini');
    assert.equal(parseModelId('claude-sonnet-4-5').id, 'anthropic:claude-sonnet-4-5');
    assert.equal(parseModelId('gemini-2.5-flash').id, 'google:gemini-2.5-flash');
    assert.equal(parseModelId('o4-mini').id, 'openai:o4-mini');
  });

  test('an unknown bare name says how to write it', () => {
    assert.throws(() => parseModelId('qwen3:8b'), /provider:model.*ollama/);
    assert.throws(() => parseModelId(''), /1 to 200 characters/);
  });
});

describe('secret box', () => {
  test('seals and opens; another secret or a changed value fails', () => {
    const box = new SecretBox('a server secret of enough length');
    const sealed = box.seal('sk-live-1234567890');
    assert.doesNotMatch(sealed, /1234567890/);
    assert.equal(box.open(sealed), 'sk-live-1234567890');
    assert.notEqual(box.seal('same'), box.seal('same'));
    assert.throws(() => new SecretBox('another server secret, long').open(sealed));
    assert.throws(() => box.open(`${sealed.slice(0, -4)}AAAA`));
  });
});

describe('cost estimate', () => {
  test('cached input at the cached price, unknown models unknown, local models free', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cachedTokens: 500_000, reasoningTokens: 0 };
    assert.equal(estimateCost(parseModelId('openai:gpt-4.1-mini'), usage), 0.2 + 0.05 + 1.6);
    assert.equal(estimateCost(parseModelId('openai:some-future-model'), usage), null);
    assert.equal(estimateCost(parseModelId('ollama:qwen3:8b'), usage), 0);
  });
});

describe('model registry', () => {
  test('no provider: resolve says where to set one (Settings first), not every variable', async () => {
    const orgId = await newOrg();
    const llm = registry({});
    assert.deepEqual(await llm.models(orgId), []);
    await assert.rejects(llm.resolve(orgId), (e: DomainError) => {
      assert.equal(e.kind, 'unavailable');
      assert.match(e.message, /Settings → Models/);
      assert.match(e.message, /OPENAI_API_KEY; the README lists them all/);
      assert.doesNotMatch(e.message, /OLLAMA_BASE_URL/);
      return true;
    });
    assert.match((await llm.offer(orgId)).configureHint ?? '', /OPENAI_API_KEY/);
  });

  test('environment keys give their catalogue; an organization narrows it and picks chat models', async () => {
    const orgId = await newOrg();
    const llm = registry({ OPENAI_API_KEY: 'sk-test-key', OLLAMA_BASE_URL: 'http://127.0.0.1:1/v1', OLLAMA_MODELS: 'qwen3:8b' });
    const all = await llm.models(orgId);
    assert.ok(all.includes('openai:gpt-4.1-mini'));
    assert.ok(all.includes('ollama:qwen3:8b'));
    assert.ok(!all.some((m) => m.startsWith('anthropic:')));
    assert.equal(await llm.defaultModel(orgId), 'openai:gpt-4.1-mini');

    await updateOrgLlmSettings(database.db, admin(orgId), {
      enabledModels: ['gpt-4.1-mini', 'openai:gpt-4o', 'ollama:qwen3:8b'],
      chatModels: ['openai:gpt-4o'],
      defaultModel: 'ollama:qwen3:8b',
    });
    assert.deepEqual(await llm.models(orgId), ['openai:gpt-4.1-mini', 'openai:gpt-4o', 'ollama:qwen3:8b']);
    assert.deepEqual(await llm.models(orgId, { chatOnly: true }), ['openai:gpt-4o']);
    assert.equal((await llm.resolve(orgId)).ref.id, 'ollama:qwen3:8b');
    assert.equal((await llm.resolve(orgId, 'gpt-4o')).ref.id, 'openai:gpt-4o');
    await assert.rejects(llm.resolve(orgId, 'openai:gpt-5'), /not enabled.*openai:gpt-4.1-mini, openai:gpt-4o, ollama:qwen3:8b/);
    await assert.rejects(llm.resolve(orgId, 'claude-sonnet-4-5'), /ANTHROPIC_API_KEY/);
  });

  test('only admins change settings', async () => {
    const orgId = await newOrg();
    await assert.rejects(
      updateOrgLlmSettings(database.db, { orgId, role: 'user', userId: null }, { monthlyLimitUsd: 1 }),
      (e: DomainError) => e.kind === 'forbidden',
    );
  });

  test("an organization's key is stored sealed and used instead of the environment's", async () => {
    const orgId = await newOrg();
    const box = new SecretBox('the secret of this test server');
    await setOrgProvider(database.db, box, admin(orgId), 'anthropic', {
      apiKey: 'sk-ant-organization-key',
      baseUrl: fake.baseUrl,
    });
    const [row] = await database.db.select().from(tables.orgLlmProviders);
    assert.ok(row);
    assert.doesNotMatch(JSON.stringify(row), /organization-key/);
    assert.equal(row.apiKeyPreview, 'sk-…-key');

    const llm = registry({ ANTHROPIC_API_KEY: 'sk-ant-environment-key' }, box);
    const [anthropic] = await llm.providers(orgId);
    assert.equal(anthropic?.keySource, 'organization');
    fake.enqueue({ text: 'hello' });
    await callLlm(llm, { orgId, model: 'anthropic:claude-haiku-4-5', operation: 'test' }, async (c) => {
      const r = await generateText({ model: c.model, prompt: 'hi', maxRetries: c.maxRetries });
      return { value: r.text, usage: r.usage };
    });
    assert.equal(fake.requests.at(-1)?.headers['x-api-key'], 'sk-ant-organization-key');

    await assert.rejects(
      setOrgProvider(database.db, undefined, admin(orgId), 'openai', { apiKey: 'sk-no-secret-here' }),
      /DOCAGENT_SECRET/,
    );
    await assert.rejects(setOrgProvider(database.db, box, admin(orgId), 'acme', { apiKey: 'x'.repeat(10) }), /Unknown provider/);
  });
});

describe('callLlm', () => {
  test('records tokens and cost per call', async () => {
    const orgId = await newOrg();
    const llm = registry({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });
    fake.enqueue({ text: 'four', usage: { inputTokens: 1000, outputTokens: 200, cachedTokens: 400, reasoningTokens: 50 } });
    const result = await callLlm(llm, { orgId, model: 'gpt-4.1-mini', operation: 'test' }, async (c) => {
      const r = await generateText({ model: c.model, prompt: '2+2?', maxRetries: c.maxRetries });
      return { value: r.text, usage: r.usage };
    });
    assert.equal(result.value, 'four');
    assert.deepEqual(result.usage, { inputTokens: 1000, outputTokens: 200, cachedTokens: 400, reasoningTokens: 50 });
    const rows = (await database.db.select().from(tables.usageLedger)).filter((r) => r.orgId === orgId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.operation, 'test');
    assert.equal(rows[0]?.model, 'openai:gpt-4.1-mini');
    assert.ok(Math.abs((rows[0]?.costUsd ?? 0) - (600 * 0.4 + 400 * 0.1 + 200 * 1.6) / 1e6) < 1e-12);
  });

  test('a reached monthly limit refuses before anything is sent', async () => {
    const orgId = await newOrg();
    const llm = registry({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });
    await updateOrgLlmSettings(database.db, admin(orgId), { monthlyLimitUsd: 0.5 });
    await database.db.insert(tables.usageLedger).values({
      id: `spent-${orgId}`,
      orgId,
      model: 'openai:gpt-4.1',
      operation: 'extraction',
      inputTokens: 1,
      outputTokens: 1,
      cachedTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.75,
    });
    await assert.rejects(assertWithinUsageLimit(database.db, orgId), /\$0\.50 a month is reached/);
    const before = fake.requests.length;
    await assert.rejects(
      callLlm(llm, { orgId, operation: 'test' }, async () => {
        throw new Error('must not be called');
      }),
      (e: DomainError) => e.kind === 'usage_limit',
    );
    assert.equal(fake.requests.length, before);
  });

  test('provider failures become messages naming the model and the status', async () => {
    const orgId = await newOrg();
    const llm = registry({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });
    const call = () =>
      callLlm(llm, { orgId, model: 'openai:gpt-4.1-mini', operation: 'test' }, async (c) => {
        const r = await generateText({ model: c.model, prompt: 'hi', maxRetries: c.maxRetries });
        return { value: r.text, usage: r.usage };
      });
    fake.enqueue({ kind: 'error', status: 429, message: 'slow down' });
    await assert.rejects(call(), (e: DomainError) => {
      assert.equal(e.kind, 'upstream_failed');
      assert.match(e.message, /openai:gpt-4.1-mini.*rate limiting.*slow down/);
      return true;
    });
    fake.enqueue({ kind: 'error', status: 401, message: 'bad key' });
    await assert.rejects(call(), /refused the credentials \(401: bad key\)/);
    fake.enqueue({ kind: 'error', status: 500, message: 'boom' });
    await assert.rejects(call(), /provider failed \(500\): boom/);
  });
});
