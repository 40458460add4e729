import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { strictResponseFormat } from '@docagent/core/response-formats';
import { type FakeLlmServer, startFakeLlm } from '@docagent/fake-llm';
import { z } from 'zod';
import { seedMember, startTestApp, type TestApp } from './helpers.ts';

/**
 * The HTTP requests DocRouter's TypeScript SDK (DocRouterOrg) makes for tags, schemas, prompts
 * and llm run/result, made the way it makes them (axios: JSON bodies, query params with
 * undefined ones left out, Bearer org token), against a listening server; every response is
 * checked against the shape the SDK's types declare.
 */

let t: TestApp;
let fake: FakeLlmServer;
let sdk: OrgClient;

const Tag = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  description: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
const Schema = z.object({
  schema_revid: z.string(),
  schema_id: z.string(),
  schema_version: z.number(),
  name: z.string(),
  response_format: z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({ name: z.string(), schema: z.record(z.string(), z.unknown()), strict: z.boolean() }),
  }),
  created_at: z.string(),
  created_by: z.string(),
});
const Prompt = z.object({
  prompt_revid: z.string(),
  prompt_id: z.string(),
  prompt_version: z.number(),
  name: z.string(),
  content: z.string(),
  schema_id: z.string().nullable(),
  schema_version: z.number().nullable(),
  tag_ids: z.array(z.string()),
  model: z.string().nullable(),
  created_at: z.string(),
  created_by: z.string(),
});
const Pagination = { total_count: z.number(), skip: z.number() };
const SchemaPage = z.object({ schemas: z.array(Schema), ...Pagination });
const PromptPage = z.object({ prompts: z.array(Prompt), ...Pagination });
const TagPage = z.object({ tags: z.array(Tag), ...Pagination });
const Message = z.object({ message: z.string() });
const LlmResult = z.object({
  prompt_revid: z.string(),
  prompt_id: z.string(),
  prompt_version: z.number(),
  document_id: z.string(),
  llm_result: z.record(z.string(), z.unknown()),
  updated_llm_result: z.record(z.string(), z.unknown()),
  is_edited: z.boolean(),
  is_verified: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  prompt_display_name: z.string().optional(),
});

class OrgClient {
  readonly base: string;
  readonly token: string;
  constructor(base: string, token: string) {
    this.base = base;
    this.token = token;
  }

  async request<T extends z.ZodType>(
    shape: T,
    method: string,
    path: string,
    options: { body?: unknown; params?: Record<string, string | number | boolean | undefined> } = {},
  ): Promise<z.infer<T>> {
    const url = new URL(`${this.base}${path}`);
    for (const [key, value] of Object.entries(options.params ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const response = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${url.pathname}: ${response.status} ${text}`);
    return shape.parse(JSON.parse(text));
  }
}

const responseFormat = strictResponseFormat({ invoice_number: { type: 'string' }, total: { type: 'number' } });

before(async () => {
  fake = await startFakeLlm();
  t = await startTestApp({
    DOCAGENT_WORKERS: '1',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: fake.baseUrl,
    LLM_MAX_RETRIES: '0',
  });
  const member = await seedMember(t.database, 'sdk');
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  sdk = new OrgClient(`${address}/v0/orgs/${member.org.id}`, member.token);
  fake.setHandler((request) => ({
    text: JSON.stringify(request.body.text?.format?.schema ? { invoice_number: 'A-1', total: 12.5 } : { summary: 'A note.' }),
  }));
});
after(async () => {
  await t.close();
  await fake.close();
});

test('tags: createTag, getTag, listTags, updateTag, deleteTag', async () => {
  const tag = await sdk.request(Tag, 'POST', '/tags', {
    body: { name: 'sdk-invoices', color: '#1e88e5', description: 'from the SDK' },
  });
  assert.equal((await sdk.request(Tag, 'GET', `/tags/${tag.id}`)).name, 'sdk-invoices');
  const list = await sdk.request(TagPage, 'GET', '/tags', { params: { skip: 0, limit: 10, name_search: 'sdk' } });
  assert.equal(list.total_count, 1);
  const updated = await sdk.request(Tag, 'PUT', `/tags/${tag.id}`, { body: { color: '#43a047' } });
  assert.equal(updated.color, '#43a047');
  await sdk.request(Message, 'DELETE', `/tags/${tag.id}`);
});

test('schemas, prompts, documents and llm run/result, as an SDK user chains them', async () => {
  const tag = await sdk.request(Tag, 'POST', '/tags', { body: { name: 'sdk-run', color: '#8e24aa' } });
  const schema = await sdk.request(Schema, 'POST', '/schemas', {
    body: { name: 'SDK invoice', response_format: responseFormat },
  });
  const schemas = await sdk.request(SchemaPage, 'GET', '/schemas', {
    params: { skip: 0, limit: 10, name_search: undefined },
  });
  assert.ok(schemas.schemas.some((s) => s.schema_revid === schema.schema_revid));
  assert.equal((await sdk.request(Schema, 'GET', `/schemas/${schema.schema_revid}`)).name, 'SDK invoice');
  const v2 = await sdk.request(Schema, 'PUT', `/schemas/${schema.schema_id}`, {
    body: {
      name: 'SDK invoice',
      response_format: { ...responseFormat, json_schema: { ...responseFormat.json_schema, name: 'invoice2' } },
    },
  });
  assert.equal(v2.schema_version, 2);
  const check = await sdk.request(
    z.object({ valid: z.boolean(), errors: z.array(z.string()).optional() }),
    'POST',
    `/schemas/${v2.schema_revid}/validate`,
    { body: { data: { invoice_number: 'A-1' } } },
  );
  assert.equal(check.valid, false);
  assert.match(check.errors?.[0] ?? '', /total/);
  const versions = await sdk.request(SchemaPage, 'GET', `/schemas/${schema.schema_id}/versions`);
  assert.deepEqual(
    versions.schemas.map((s) => s.schema_version),
    [2, 1],
  );

  const prompt = await sdk.request(Prompt, 'POST', '/prompts', {
    body: {
      name: 'SDK prompt',
      content: 'Extract the invoice.',
      schema_id: schema.schema_id,
      schema_version: 2,
      tag_ids: [tag.id],
      model: 'gpt-4.1-mini',
    },
  });
  const prompts = await sdk.request(PromptPage, 'GET', '/prompts', {
    params: { skip: 0, limit: 10, document_id: undefined, tag_ids: tag.id, name_search: undefined },
  });
  assert.deepEqual(
    prompts.prompts.map((p) => p.prompt_revid),
    [prompt.prompt_revid],
  );
  assert.equal((await sdk.request(Prompt, 'GET', `/prompts/${prompt.prompt_revid}`)).schema_version, 2);
  const prompt2 = await sdk.request(Prompt, 'PUT', `/prompts/${prompt.prompt_id}`, {
    body: { name: 'SDK prompt', content: 'Extract the whole invoice.', schema_id: schema.schema_id, tag_ids: [tag.id] },
  });
  assert.equal(prompt2.prompt_version, 2);
  assert.equal((await sdk.request(PromptPage, 'GET', `/prompts/${prompt.prompt_id}/versions`)).prompts.length, 2);

  const uploaded = await sdk.request(
    z.object({
      documents: z.array(
        z.object({
          document_id: z.string(),
          document_name: z.string(),
          upload_date: z.string(),
          uploaded_by: z.string(),
          state: z.string(),
          tag_ids: z.array(z.string()),
          metadata: z.record(z.string(), z.string()),
        }),
      ),
    }),
    'POST',
    '/documents',
    { body: { documents: [{ name: 'sdk.txt', content: Buffer.from('Invoice A-1, total 12.50').toString('base64') }] } },
  );
  const documentId = uploaded.documents[0]?.document_id ?? '';
  const deadline = Date.now() + 60_000;
  for (;;) {
    const doc = await sdk.request(z.object({ state: z.string() }), 'GET', `/documents/${documentId}`, {
      params: { file_type: 'original', include_content: false },
    });
    if (doc.state === 'llm_completed' || doc.state === 'llm_failed') break;
    assert.ok(Date.now() < deadline, `document still ${doc.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }

  const run = await sdk.request(z.object({ result_id: z.string(), status: z.string() }), 'POST', `/llm/run/${documentId}`, {
    body: {},
    params: { prompt_revid: prompt2.prompt_revid, force: undefined },
  });
  assert.equal(run.status, 'success');
  const result = await sdk.request(LlmResult, 'GET', `/llm/result/${documentId}`, {
    params: { prompt_revid: prompt2.prompt_revid, fallback: undefined },
  });
  assert.deepEqual(result.llm_result, { invoice_number: 'A-1', total: 12.5 });
  const summary = await sdk.request(LlmResult, 'GET', `/llm/result/${documentId}`, { params: { prompt_revid: 'default' } });
  assert.deepEqual(summary.llm_result, { summary: 'A note.' });

  const verified = await sdk.request(LlmResult, 'PUT', `/llm/result/${documentId}`, {
    body: { updated_llm_result: { invoice_number: 'A-1', total: 13 }, is_verified: true },
    params: { prompt_revid: prompt2.prompt_revid },
  });
  assert.deepEqual([verified.is_edited, verified.is_verified], [true, true]);
  await sdk.request(z.unknown(), 'DELETE', `/llm/result/${documentId}`, { params: { prompt_revid: prompt2.prompt_revid } });
  const models = await sdk.request(z.object({ models: z.array(z.string()) }), 'GET', '/llm/models');
  assert.ok(models.models.includes('openai:gpt-4.1-mini'));

  await sdk.request(Message, 'DELETE', `/prompts/${prompt.prompt_id}`);
  await sdk.request(Message, 'DELETE', `/schemas/${schema.schema_id}`);
});
