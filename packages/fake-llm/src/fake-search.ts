/**
 * A local fake web search server speaking the three APIs docagent's web search calls, for tests (no internet):
 *
 *   GET  /search?q=…&format=json           SearXNG  → {query, number_of_results, results: [{title, url, content, engine}]}
 *   POST /search {query, max_results}      Tavily   → {query, answer: null, results: [{title, url, content, score}], response_time}
 *   GET  /res/v1/web/search?q=…&count=…    Brave    → {type: 'search', query: {original}, web: {type: 'search', results: [{title, url, description}]}}
 *
 * Results are derived from the query (https://example.org/<slug>/<n>, titles and snippets quoting it), 3 by default.
 * Behaviours: 'ok', 'hang' (never answers until closed), 'error500', 'garbage' (200 with HTML), 'wrong_shape'.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOn } from './listen.ts';

export type FakeSearchApi = 'searxng' | 'tavily' | 'brave';
export type FakeSearchBehaviour = 'ok' | 'hang' | 'error500' | 'garbage' | 'wrong_shape';

export interface FakeSearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface FakeSearchRequest {
  api: FakeSearchApi;
  method: string;
  path: string;
  /** The URL's query parameters. */
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON for POST bodies, else null (or the raw text when it was not JSON). */
  body: unknown;
}

/** What a scripted handler may answer: a behaviour, these results (in the API's shape), or a raw HTTP reply. */
export type FakeSearchReply =
  | FakeSearchBehaviour
  | { results: FakeSearchResult[] }
  | { status: number; body: string; contentType?: string };

export type FakeSearchHandler = (request: FakeSearchRequest) => FakeSearchReply | Promise<FakeSearchReply>;

export interface FakeSearchServer {
  /** http://127.0.0.1:PORT — SEARXNG_URL, TAVILY_BASE_URL and BRAVE_SEARCH_BASE_URL all take it as is. */
  url: string;
  requests: FakeSearchRequest[];
  /** For every request from now on (default 'ok'); a script handler, when set, wins. */
  setBehaviour(behaviour: FakeSearchBehaviour): void;
  /** Decides each reply; undefined goes back to the behaviour. */
  script(handler: FakeSearchHandler | undefined): void;
  /** Behaviour 'ok', no handler, no requests. */
  reset(): void;
  /** Also ends hanging requests. */
  close(): Promise<void>;
}

export interface FakeSearchOptions {
  port?: number;
  host?: string;
  /** Results per 'ok' answer before the request's own limit (max_results / count) applies. Default 3. */
  resultCount?: number;
}

const MAX_BODY_BYTES = 1024 * 1024;

export function querySlug(query: string): string {
  const slug = query
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return slug || 'query';
}

/** The deterministic results for a query: https://example.org/<slug>/1…n. */
export function fakeSearchResults(query: string, count = 3): FakeSearchResult[] {
  const slug = querySlug(query);
  return Array.from({ length: count }, (_, i) => ({
    title: `Result ${i + 1} for ${query}`,
    url: `https://example.org/${slug}/${i + 1}`,
    snippet: `Snippet ${i + 1}: what example.org says about ${query}.`,
  }));
}

function sendText(res: ServerResponse, status: number, text: string, contentType: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  sendText(res, status, JSON.stringify(body), 'application/json');

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function routeApi(method: string, path: string): FakeSearchApi | undefined {
  if (path === '/search' && method === 'GET') return 'searxng';
  if (path === '/search' && method === 'POST') return 'tavily';
  if (path === '/res/v1/web/search' && method === 'GET') return 'brave';
  return undefined;
}

function searchText(request: FakeSearchRequest): string {
  if (request.api === 'tavily') {
    const body = request.body as { query?: unknown } | null;
    return typeof body?.query === 'string' ? body.query : '';
  }
  return request.query.q ?? '';
}

function requestedLimit(request: FakeSearchRequest): number | undefined {
  const raw =
    request.api === 'tavily'
      ? (request.body as { max_results?: unknown } | null)?.max_results
      : request.api === 'brave'
        ? request.query.count
        : undefined;
  const n = typeof raw === 'string' ? Number(raw) : raw;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

function okBody(api: FakeSearchApi, query: string, results: FakeSearchResult[]): unknown {
  switch (api) {
    case 'searxng':
      return {
        query,
        number_of_results: results.length,
        results: results.map((r) => ({ title: r.title, url: r.url, content: r.snippet, engine: 'fake', score: 1 })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      };
    case 'tavily':
      return {
        query,
        answer: null,
        images: [],
        follow_up_questions: null,
        results: results.map((r, i) => ({
          title: r.title,
          url: r.url,
          content: r.snippet,
          score: 1 - i / 10,
          raw_content: null,
        })),
        response_time: 0.01,
      };
    case 'brave':
      return {
        type: 'search',
        query: { original: query, more_results_available: false },
        web: {
          type: 'search',
          family_friendly: true,
          results: results.map((r) => ({ type: 'search_result', title: r.title, url: r.url, description: r.snippet })),
        },
      };
  }
}

function wrongShapeBody(api: FakeSearchApi): unknown {
  return api === 'brave' ? { type: 'search', web: { results: 'not a list' } } : { query: 'x', results: { not: 'a list' } };
}

export function startFakeSearch(options: FakeSearchOptions = {}): Promise<FakeSearchServer> {
  const host = options.host ?? '127.0.0.1';
  const resultCount = options.resultCount ?? 3;
  const requests: FakeSearchRequest[] = [];
  let behaviour: FakeSearchBehaviour = 'ok';
  let handler: FakeSearchHandler | undefined;

  async function answer(api: FakeSearchApi, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const text = await readBody(req);
    if (text === null) {
      sendJson(res, 413, { error: `fake-search: request body exceeds ${MAX_BODY_BYTES} bytes` });
      return;
    }
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const request: FakeSearchRequest = {
      api,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: headerRecord(req),
      body,
    };
    requests.push(request);

    let reply: FakeSearchReply = behaviour;
    if (handler) {
      try {
        reply = await handler(request);
      } catch (error) {
        sendJson(res, 500, { error: `fake-search: handler threw: ${error instanceof Error ? error.message : String(error)}` });
        return;
      }
    }
    const query = searchText(request);
    if (typeof reply === 'object') {
      if ('results' in reply) {
        sendJson(res, 200, okBody(api, query, reply.results));
      } else {
        sendText(res, reply.status, reply.body, reply.contentType ?? 'application/json');
      }
      return;
    }
    switch (reply) {
      case 'ok': {
        const limit = requestedLimit(request);
        const count = limit === undefined ? resultCount : Math.min(resultCount, limit);
        sendJson(res, 200, okBody(api, query, fakeSearchResults(query, count)));
        return;
      }
      case 'hang':
        return; // never answered; close() ends the connection
      case 'error500':
        sendJson(res, 500, { error: 'fake-search: scripted internal server error' });
        return;
      case 'garbage':
        sendText(res, 200, '<html><body>fake-search: this is not JSON</body></html>', 'text/html; charset=utf-8');
        return;
      case 'wrong_shape':
        sendJson(res, 200, wrongShapeBody(api));
        return;
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake-search.local');
    const api = routeApi(req.method ?? 'GET', url.pathname);
    if (!api) {
      req.resume();
      sendJson(res, 404, { error: `fake-search: no route for ${req.method} ${url.pathname}` });
      return;
    }
    answer(api, req, res, url).catch((error: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: `fake-search: ${error instanceof Error ? error.message : String(error)}` });
      } else {
        res.destroy();
      }
    });
  });

  return listenOn(server, options.port ?? 0, host).then(({ url, close }) => ({
    url,
    requests,
    setBehaviour: (next) => {
      behaviour = next;
    },
    script: (next) => {
      handler = next;
    },
    reset: () => {
      behaviour = 'ok';
      handler = undefined;
      requests.length = 0;
    },
    close,
  }));
}
