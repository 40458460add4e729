/**
 * Brave Search: GET {base}/res/v1/web/search?q=…&count=… with header `X-Subscription-Token: <key>`
 * → {type: 'search', query, web: {results: [{title, url, description, …}]}, …}. `web` is absent when nothing was found.
 * q is at most 400 characters; count 1–20.
 */
import {
  checkQuery,
  clampMaxResults,
  collectResults,
  DEFAULT_BRAVE_SEARCH_BASE_URL,
  DEFAULT_WEB_SEARCH_TIMEOUT_MS,
  isRecord,
  plainText,
  requestJson,
  toSearchResult,
  wrongShape,
} from './search-http.ts';
import type { WebSearchClientOptions, WebSearchProvider } from './web-search.ts';

const PROVIDER = 'Brave Search';
const MAX_QUERY_CHARS = 400;

export function createBraveSearch(options: WebSearchClientOptions & { apiKey: string; baseUrl?: string }): WebSearchProvider {
  const baseUrl = options.baseUrl ?? DEFAULT_BRAVE_SEARCH_BASE_URL;
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return {
    name: 'brave',
    async search(query, { maxResults, signal }) {
      const q = Array.from(checkQuery(query)).slice(0, MAX_QUERY_CHARS).join('');
      const limit = clampMaxResults(maxResults);
      const url = new URL('res/v1/web/search', base);
      url.searchParams.set('q', q);
      url.searchParams.set('count', String(limit));
      const body = await requestJson({
        provider: PROVIDER,
        url,
        init: { method: 'GET', headers: { accept: 'application/json', 'x-subscription-token': options.apiKey } },
        timeoutMs: options.timeoutMs ?? DEFAULT_WEB_SEARCH_TIMEOUT_MS,
        signal,
        fetch: options.fetch ?? globalThis.fetch,
        secret: options.apiKey,
        authAdvice:
          'Brave Search refused the subscription token: check BRAVE_SEARCH_API_KEY and that it belongs to a Search plan.',
      });
      if (!isRecord(body)) throw wrongShape(PROVIDER, 'not an object');
      if (body.web === undefined && body.type === 'search') return [];
      if (!isRecord(body.web) || !Array.isArray(body.web.results)) {
        throw wrongShape(
          PROVIDER,
          'no "web.results" list',
          'If BRAVE_SEARCH_BASE_URL is set, check that it points at the Brave Search API.',
        );
      }
      return collectResults(
        body.web.results,
        (item) => toSearchResult(plainText(item.title), item.url, plainText(item.description)),
        limit,
      );
    },
  };
}
