import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { type FakeSearchServer, startFakeSearch } from '@docagent/fake-llm';
import {
  CONFIGURE_WEB_SEARCH_HINT,
  createBraveSearch,
  createSearxngSearch,
  createTavilySearch,
  DomainError,
  type WebSearchProvider,
  webSearchFromEnv,
} from '../src/index.ts';

const TAVILY_KEY = 'tvly-secret-key-0123456789';
const BRAVE_KEY = 'brave-secret-token-9876543210';

let fake: FakeSearchServer;
before(async () => {
  fake = await startFakeSearch();
});
afterEach(() => fake.reset());
after(async () => {
  await fake.close();
});

const providers = (timeoutMs = 5_000): Array<{ provider: WebSearchProvider; key?: string; label: string }> => [
  { provider: createSearxngSearch({ baseUrl: fake.url, timeoutMs }), label: 'SearXNG' },
  { provider: createTavilySearch({ baseUrl: fake.url, apiKey: TAVILY_KEY, timeoutMs }), key: TAVILY_KEY, label: 'Tavily' },
  { provider: createBraveSearch({ baseUrl: fake.url, apiKey: BRAVE_KEY, timeoutMs }), key: BRAVE_KEY, label: 'Brave Search' },
];

async function upstreamError(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.kind, 'upstream_failed');
    return error;
  }
  assert.fail('expected the search to fail');
}

const expected = (n: number) => ({
  title: `Result ${n} for solar panels`,
  url: `https://example.org/solar-panels/${n}`,
  snippet: `Snippet ${n}: what example.org says about solar panels.`,
});

describe('providers against the fake search server', () => {
  test('SearXNG: GET /search?q=…&format=json, results[].content → snippet', async () => {
    const provider = createSearxngSearch({ baseUrl: `${fake.url}/` });
    assert.equal(provider.name, 'searxng');
    const results = await provider.search('  solar panels ', { maxResults: 5 });
    assert.deepEqual(results, [expected(1), expected(2), expected(3)]);
    const [request] = fake.requests;
    assert.equal(request?.api, 'searxng');
    assert.equal(request?.query.q, 'solar panels');
    assert.equal(request?.query.format, 'json');
  });

  test('Tavily: POST /search with a Bearer key, {query, max_results}, results[].content → snippet', async () => {
    const provider = createTavilySearch({ baseUrl: fake.url, apiKey: TAVILY_KEY });
    assert.equal(provider.name, 'tavily');
    const results = await provider.search('solar panels', { maxResults: 2 });
    assert.deepEqual(results, [expected(1), expected(2)]);
    const [request] = fake.requests;
    assert.equal(request?.api, 'tavily');
    assert.equal(request?.headers.authorization, `Bearer ${TAVILY_KEY}`);
    assert.equal(request?.headers['content-type'], 'application/json');
    const sent = request?.body as { query?: unknown; max_results?: unknown } | undefined;
    assert.deepEqual({ query: sent?.query, max_results: sent?.max_results }, { query: 'solar panels', max_results: 2 });
    assert.equal(JSON.stringify(request?.body).includes(TAVILY_KEY), false, 'the key goes in the header only');
  });

  test('Brave: GET /res/v1/web/search?q=&count= with X-Subscription-Token, web.results[].description → snippet', async () => {
    const provider = createBraveSearch({ baseUrl: fake.url, apiKey: BRAVE_KEY });
    assert.equal(provider.name, 'brave');
    const results = await provider.search('solar panels', { maxResults: 3 });
    assert.deepEqual(results, [expected(1), expected(2), expected(3)]);
    const [request] = fake.requests;
    assert.equal(request?.api, 'brave');
    assert.equal(request?.headers['x-subscription-token'], BRAVE_KEY);
    assert.equal(request?.query.q, 'solar panels');
    assert.equal(request?.query.count, '3');
    assert.equal(request?.headers.authorization, undefined);
  });

  test('Brave: <strong> marks and entities become plain text; a response without web is no results', async () => {
    fake.script(() => ({
      results: [
        {
          title: 'Solar &amp; <strong>wind</strong>',
          url: 'https://a.example/x',
          snippet: 'Use <strong>panels</strong> &lt;now&gt;',
        },
      ],
    }));
    const provider = createBraveSearch({ baseUrl: fake.url, apiKey: BRAVE_KEY });
    assert.deepEqual(await provider.search('q', { maxResults: 5 }), [
      { title: 'Solar & wind', url: 'https://a.example/x', snippet: 'Use panels <now>' },
    ]);
    fake.script(() => ({ status: 200, body: JSON.stringify({ type: 'search', query: { original: 'q' } }) }));
    assert.deepEqual(await provider.search('q', { maxResults: 5 }), []);
  });

  test('results are trimmed, non-http(s) URLs dropped, and cut to maxResults (clamped to 1–10)', async () => {
    const many = Array.from({ length: 15 }, (_, i) => ({
      title: i === 0 ? 'T'.repeat(500) : `  Title\n ${i}  `,
      url:
        i === 1 ? 'ftp://example.org/file' : i === 2 ? 'javascript:alert(1)' : i === 3 ? 'not a url' : `https://example.org/${i}`,
      snippet: i === 0 ? 'S'.repeat(3000) : `snippet ${i}`,
    }));
    fake.script(() => ({ results: many }));
    for (const { provider, label } of providers()) {
      const results = await provider.search('anything', { maxResults: 50 });
      assert.equal(results.length, 10, label);
      assert.ok(
        results.every((r) => r.url.startsWith('https://')),
        label,
      );
      assert.ok(!results.some((r) => /ftp:|javascript:|not a url/.test(r.url)), label);
      const first = results[0];
      assert.ok(first && first.title.length <= 300 && first.title.endsWith('…'), label);
      assert.ok(first && first.snippet.length <= 1000 && first.snippet.endsWith('…'), label);
      assert.equal(results[1]?.title, 'Title 4', label);
      assert.equal((await provider.search('anything', { maxResults: 0 })).length, 1, label);
    }
  });

  test('an empty query is invalid input, and nothing is sent', async () => {
    for (const { provider } of providers()) {
      await assert.rejects(provider.search('   ', { maxResults: 3 }), (error: unknown) => {
        return error instanceof DomainError && error.kind === 'invalid_input';
      });
    }
    assert.equal(fake.requests.length, 0);
  });
});

describe('failures are upstream_failed, name the provider, never carry the key', () => {
  test('hang → did not answer within the timeout', async () => {
    fake.setBehaviour('hang');
    for (const { provider, key, label } of providers(200)) {
      const error = await upstreamError(provider.search('slow', { maxResults: 3 }));
      assert.match(error.message, new RegExp(`${label}.*did not answer within 0\\.2 s`), label);
      if (key) assert.equal(error.message.includes(key), false, label);
    }
  });

  test('the caller’s own abort is passed on as is, not as a provider failure', async () => {
    fake.setBehaviour('hang');
    const controller = new AbortController();
    const provider = createSearxngSearch({ baseUrl: fake.url });
    const pending = provider.search('slow', { maxResults: 3, signal: controller.signal });
    controller.abort(new Error('stopped by the caller'));
    await assert.rejects(pending, /stopped by the caller/);
  });

  test('HTTP 500 → names the status', async () => {
    fake.setBehaviour('error500');
    for (const { provider, key, label } of providers()) {
      const error = await upstreamError(provider.search('x', { maxResults: 3 }));
      assert.match(error.message, new RegExp(`Web search with ${label} failed: .*HTTP 500`), label);
      assert.match(error.message, /try again/i, label);
      if (key) assert.equal(error.message.includes(key), false, label);
    }
  });

  test('an error body echoing the key is redacted; 401 says which setting to check', async () => {
    fake.script((request) => ({
      status: 401,
      body: JSON.stringify({
        detail: { error: `Unauthorized: ${request.headers.authorization ?? request.headers['x-subscription-token']}` },
      }),
    }));
    for (const { provider, key, label } of providers().slice(1)) {
      const error = await upstreamError(provider.search('x', { maxResults: 3 }));
      assert.ok(key);
      assert.equal(error.message.includes(key), false, label);
      assert.match(error.message, /HTTP 401/, label);
      assert.match(error.message, label === 'Tavily' ? /TAVILY_API_KEY/ : /BRAVE_SEARCH_API_KEY/, label);
    }
  });

  test('garbage → answered with something that is not JSON', async () => {
    fake.setBehaviour('garbage');
    for (const { provider, key, label } of providers()) {
      const error = await upstreamError(provider.search('x', { maxResults: 3 }));
      assert.match(error.message, new RegExp(`${label} answered with something that is not JSON`), label);
      if (key) assert.equal(error.message.includes(key), false, label);
    }
  });

  test('wrong shape → an unexpected shape', async () => {
    fake.setBehaviour('wrong_shape');
    for (const { provider, key, label } of providers()) {
      const error = await upstreamError(provider.search('x', { maxResults: 3 }));
      assert.match(error.message, new RegExp(`${label} answered with JSON of an unexpected shape`), label);
      if (key) assert.equal(error.message.includes(key), false, label);
    }
  });

  test('nothing listening → could not be reached', async () => {
    const closed = await startFakeSearch();
    await closed.close();
    const provider = createTavilySearch({ baseUrl: closed.url, apiKey: TAVILY_KEY });
    const error = await upstreamError(provider.search('x', { maxResults: 3 }));
    assert.match(error.message, /Tavily could not be reached/);
    assert.equal(error.message.includes(TAVILY_KEY), false);
  });
});

describe('webSearchFromEnv', () => {
  test('none configured → null, and the hint names every variable', () => {
    assert.equal(webSearchFromEnv({}), null);
    assert.equal(webSearchFromEnv({ SEARXNG_URL: '  ', TAVILY_API_KEY: '' }), null);
    for (const name of ['SEARXNG_URL', 'TAVILY_API_KEY', 'BRAVE_SEARCH_API_KEY']) {
      assert.ok(CONFIGURE_WEB_SEARCH_HINT.includes(name), name);
    }
  });

  test('SearXNG first, then Tavily, then Brave', () => {
    const all = { SEARXNG_URL: fake.url, TAVILY_API_KEY: TAVILY_KEY, BRAVE_SEARCH_API_KEY: BRAVE_KEY };
    assert.equal(webSearchFromEnv(all)?.name, 'searxng');
    assert.equal(webSearchFromEnv({ ...all, SEARXNG_URL: undefined })?.name, 'tavily');
    assert.equal(webSearchFromEnv({ BRAVE_SEARCH_API_KEY: BRAVE_KEY })?.name, 'brave');
  });

  test('base URL overrides reach the fake server; options pass through', async () => {
    const tavily = webSearchFromEnv({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_BASE_URL: fake.url });
    assert.equal((await tavily?.search('solar panels', { maxResults: 1 }))?.[0]?.url, 'https://example.org/solar-panels/1');
    const brave = webSearchFromEnv({ BRAVE_SEARCH_API_KEY: BRAVE_KEY, BRAVE_SEARCH_BASE_URL: fake.url });
    assert.equal((await brave?.search('solar panels', { maxResults: 1 }))?.length, 1);
    fake.setBehaviour('hang');
    const searxng = webSearchFromEnv({ SEARXNG_URL: fake.url }, { timeoutMs: 100 });
    const error = await upstreamError(searxng?.search('x', { maxResults: 1 }) ?? Promise.resolve());
    assert.match(error.message, /did not answer within 0\.1 s/);
  });

  test('a URL setting that is not http(s) is invalid input naming the variable', () => {
    assert.throws(
      () => webSearchFromEnv({ SEARXNG_URL: 'ftp://searx.local' }),
      (error: unknown) => error instanceof DomainError && error.kind === 'invalid_input' && error.message.includes('SEARXNG_URL'),
    );
    assert.throws(() => webSearchFromEnv({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_BASE_URL: 'nope' }), /TAVILY_BASE_URL/);
  });
});
