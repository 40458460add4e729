/**
 * Tavily: POST {base}/search with `Authorization: Bearer <key>` and {query, max_results, search_depth, …}
 * → {query, answer, results: [{title, url, content, score, …}], response_time, …}.
 */
import {
  checkQuery,
  clampMaxResults,
  collectResults,
  DEFAULT_TAVILY_BASE_URL,
  DEFAULT_WEB_SEARCH_TIMEOUT_MS,
  isRecord,
  requestJson,
  toSearchResult,
  wrongShape,
} from './search-http.ts';
import type { WebSearchClientOptions, WebSearchProvider } from './web-search.ts';

const PROVIDER = 'Tavily';

export function createTavilySearch(options: WebSearchClientOptions & { apiKey: string; baseUrl?: string }): WebSearchProvider {
  const baseUrl = options.baseUrl ?? DEFAULT_TAVILY_BASE_URL;
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return {
    name: 'tavily',
    async search(query, { maxResults, signal }) {
      const q = checkQuery(query);
      const limit = clampMaxResults(maxResults);
      const body = await requestJson({
        provider: PROVIDER,
        url: new URL('search', base),
        init: {
          method: 'POST',
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
          },
          body: JSON.stringify({
            query: q,
            max_results: limit,
            search_depth: 'basic',
            include_answer: false,
            include_raw_content: false,
            include_images: false,
          }),
        },
        timeoutMs: options.timeoutMs ?? DEFAULT_WEB_SEARCH_TIMEOUT_MS,
        signal,
        fetch: options.fetch ?? globalThis.fetch,
        secret: options.apiKey,
        authAdvice: 'Tavily refused the API key: check TAVILY_API_KEY (and that the plan has credits left).',
      });
      if (!isRecord(body) || !Array.isArray(body.results)) {
        throw wrongShape(PROVIDER, 'no "results" list', 'If TAVILY_BASE_URL is set, check that it points at the Tavily API.');
      }
      return collectResults(body.results, (item) => toSearchResult(item.title, item.url, item.content), limit);
    },
  };
}
