/**
 * Web search behind one small interface, with one provider per file (SearXNG by URL, Tavily or Brave by key).
 * `webSearchFromEnv` picks the configured one; none configured → null, and the caller says CONFIGURE_WEB_SEARCH_HINT.
 */
import { invalidInput } from '../errors.ts';
import { createBraveSearch } from './brave.ts';
import { DEFAULT_BRAVE_SEARCH_BASE_URL, DEFAULT_TAVILY_BASE_URL } from './search-http.ts';
import { createSearxngSearch } from './searxng.ts';
import { createTavilySearch } from './tavily.ts';

export interface SearchResult {
  title: string;
  /** http(s) only; results with other URLs are dropped. */
  url: string;
  snippet: string;
}

export type WebSearchProviderName = 'searxng' | 'tavily' | 'brave';

export interface WebSearchOptions {
  /** 1–10; clamped. */
  maxResults: number;
  /** The caller's cancellation; combined with the provider's timeout. */
  signal?: AbortSignal;
}

export interface WebSearchProvider {
  name: WebSearchProviderName;
  /** Resolves with at most `maxResults` results; failures are DomainError 'upstream_failed'. Never mentions an API key. */
  search(query: string, options: WebSearchOptions): Promise<SearchResult[]>;
}

export interface WebSearchClientOptions {
  /** Per request, including reading the body. Default 10 s. */
  timeoutMs?: number;
  /** For tests; default globalThis.fetch. */
  fetch?: typeof fetch;
}

export {
  DEFAULT_BRAVE_SEARCH_BASE_URL,
  DEFAULT_TAVILY_BASE_URL,
  DEFAULT_WEB_SEARCH_TIMEOUT_MS,
  MAX_WEB_SEARCH_RESULTS,
} from './search-http.ts';
export { createBraveSearch, createSearxngSearch, createTavilySearch };

export const CONFIGURE_WEB_SEARCH_HINT =
  'Web search is not configured on this server. To enable it, set one of these environment variables on the server and restart it: ' +
  'SEARXNG_URL (the address of a SearXNG instance with the JSON format enabled, e.g. http://localhost:8080), ' +
  'TAVILY_API_KEY (a Tavily API key, from https://app.tavily.com), or ' +
  'BRAVE_SEARCH_API_KEY (a Brave Search API key, from https://api-dashboard.search.brave.com). ' +
  'If several are set, SearXNG is used first, then Tavily, then Brave.';

const setting = (env: Readonly<Record<string, string | undefined>>, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/** A base URL from configuration: must be http(s). Throws invalid_input naming the variable, never echoing a key. */
export function configuredBaseUrl(value: string, variable: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalidInput(`${variable} is not a valid URL. Set it to an http(s) address such as http://localhost:8080.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalidInput(`${variable} must be an http:// or https:// address (it is ${parsed.protocol}//…).`);
  }
  return value;
}

/**
 * The configured provider: SEARXNG_URL first, then TAVILY_API_KEY (base TAVILY_BASE_URL), then BRAVE_SEARCH_API_KEY
 * (base BRAVE_SEARCH_BASE_URL); null when none is set. An invalid URL setting throws invalid_input.
 */
export function webSearchFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: WebSearchClientOptions = {},
): WebSearchProvider | null {
  const searxngUrl = setting(env, 'SEARXNG_URL');
  if (searxngUrl) return createSearxngSearch({ ...options, baseUrl: configuredBaseUrl(searxngUrl, 'SEARXNG_URL') });
  const tavilyKey = setting(env, 'TAVILY_API_KEY');
  if (tavilyKey) {
    const baseUrl = setting(env, 'TAVILY_BASE_URL');
    return createTavilySearch({
      ...options,
      apiKey: tavilyKey,
      baseUrl: baseUrl ? configuredBaseUrl(baseUrl, 'TAVILY_BASE_URL') : DEFAULT_TAVILY_BASE_URL,
    });
  }
  const braveKey = setting(env, 'BRAVE_SEARCH_API_KEY');
  if (braveKey) {
    const baseUrl = setting(env, 'BRAVE_SEARCH_BASE_URL');
    return createBraveSearch({
      ...options,
      apiKey: braveKey,
      baseUrl: baseUrl ? configuredBaseUrl(baseUrl, 'BRAVE_SEARCH_BASE_URL') : DEFAULT_BRAVE_SEARCH_BASE_URL,
    });
  }
  return null;
}
