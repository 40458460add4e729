/**
 * SearXNG's JSON API: GET {base}/search?q=…&format=json → {query, results: [{title, url, content, engine, …}], …}.
 * The instance must allow the json format (settings.yml `search.formats`), else it answers 403. It returns a page of
 * results (about 20) whatever we ask, so we cut to maxResults here.
 */
import {
  checkQuery,
  clampMaxResults,
  collectResults,
  DEFAULT_WEB_SEARCH_TIMEOUT_MS,
  isRecord,
  requestJson,
  toSearchResult,
  wrongShape,
} from './search-http.ts';
import type { WebSearchClientOptions, WebSearchProvider } from './web-search.ts';

const PROVIDER = 'SearXNG';

export function createSearxngSearch(options: WebSearchClientOptions & { baseUrl: string }): WebSearchProvider {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  return {
    name: 'searxng',
    async search(query, { maxResults, signal }) {
      const q = checkQuery(query);
      const limit = clampMaxResults(maxResults);
      const url = new URL('search', base);
      url.searchParams.set('q', q);
      url.searchParams.set('format', 'json');
      url.searchParams.set('pageno', '1');
      const body = await requestJson({
        provider: PROVIDER,
        url,
        init: { method: 'GET', headers: { accept: 'application/json' } },
        timeoutMs: options.timeoutMs ?? DEFAULT_WEB_SEARCH_TIMEOUT_MS,
        signal,
        fetch: options.fetch ?? globalThis.fetch,
        authAdvice:
          'A SearXNG instance answers 403 when the JSON format is not enabled: add "json" to search.formats in its settings.yml, or check the access rules in front of it.',
      });
      if (!isRecord(body) || !Array.isArray(body.results)) {
        throw wrongShape(PROVIDER, 'no "results" list', 'Check that SEARXNG_URL is the base address of a SearXNG instance.');
      }
      return collectResults(body.results, (item) => toSearchResult(item.title, item.url, item.content), limit);
    },
  };
}
