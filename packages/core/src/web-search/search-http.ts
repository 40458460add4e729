/** What the three providers share: one JSON request with a timeout, failures said plainly, results trimmed. */
import { invalidInput, upstreamFailed } from '../errors.ts';
import type { SearchResult } from './web-search.ts';

export const DEFAULT_WEB_SEARCH_TIMEOUT_MS = 10_000;
export const MAX_WEB_SEARCH_RESULTS = 10;
export const DEFAULT_TAVILY_BASE_URL = 'https://api.tavily.com';
export const DEFAULT_BRAVE_SEARCH_BASE_URL = 'https://api.search.brave.com';
export const TITLE_MAX_CHARS = 300;
export const SNIPPET_MAX_CHARS = 1000;

export interface SearchRequest {
  /** "SearXNG", "Tavily", "Brave Search" */
  provider: string;
  url: URL;
  init: RequestInit;
  timeoutMs: number;
  signal?: AbortSignal;
  fetch: typeof fetch;
  /** Removed from every message (API key). */
  secret?: string;
  /** What to check when the provider refuses the request (401/403). */
  authAdvice: string;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

const scrub = (text: string, secret: string | undefined) => (secret ? text.replaceAll(secret, '[redacted]') : text);

const excerpt = (text: string, secret: string | undefined) => {
  const flat = scrub(text, secret).replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
};

function statusAdvice(status: number, authAdvice: string): string {
  if (status === 401 || status === 403) return authAdvice;
  if (status === 429)
    return 'The provider is rate limiting or the plan quota is used up; wait a little and try again, or check the plan.';
  if (status >= 500) return 'The provider is having trouble; try again in a moment.';
  return 'Check the query and the provider configuration, then try again.';
}

/** 1–10 whole results; anything else is clamped (NaN → 10). */
export function clampMaxResults(maxResults: number, max = MAX_WEB_SEARCH_RESULTS): number {
  if (!Number.isFinite(maxResults)) return max;
  return Math.min(max, Math.max(1, Math.floor(maxResults)));
}

export function checkQuery(query: string): string {
  const trimmed = typeof query === 'string' ? query.trim() : '';
  if (!trimmed) throw invalidInput('The search query is empty. Give a few words to search for.');
  return trimmed;
}

/** GETs/POSTs and parses JSON; every failure is upstream_failed naming the provider and what happened. */
export async function requestJson(request: SearchRequest): Promise<unknown> {
  const { provider, secret } = request;
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const fail = (what: string, advice: string, cause?: unknown) =>
    upstreamFailed(scrub(`Web search with ${provider} failed: ${what}. ${advice}`, secret), cause);
  const timedOut = () =>
    fail(
      `${provider} did not answer within ${seconds(request.timeoutMs)}`,
      'The provider may be slow or unreachable; try again in a moment.',
    );
  // The caller's own cancellation is not a provider failure: pass its reason on unchanged.
  const callerAborted = () => request.signal?.aborted === true && !timeout.aborted;

  let response: Response;
  try {
    response = await request.fetch(request.url, { ...request.init, signal });
  } catch (error) {
    if (callerAborted()) throw request.signal?.reason ?? error;
    if (timeout.aborted) throw timedOut();
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const detail =
      cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string'
        ? cause.code
        : cause instanceof Error
          ? cause.message
          : String(cause);
    throw fail(
      `${provider} could not be reached at ${request.url.origin} (${detail})`,
      'Check that the address is right and the service is running.',
    );
  }

  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (callerAborted()) throw request.signal?.reason ?? error;
    if (timeout.aborted) throw timedOut();
    throw fail(`${provider} broke off its answer`, 'Try again in a moment.', error);
  }

  if (!response.ok) {
    const body = excerpt(text, secret);
    throw fail(
      `${provider} answered with HTTP ${response.status}${body ? ` (${body})` : ''}`,
      statusAdvice(response.status, request.authAdvice),
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    const contentType = response.headers.get('content-type');
    throw fail(
      `${provider} answered with something that is not JSON${contentType ? ` (content-type ${contentType})` : ''}`,
      'Check that the configured address points at the search API itself.',
    );
  }
}

export function wrongShape(
  provider: string,
  what: string,
  advice = 'Check that the configured address points at the search API itself.',
) {
  return upstreamFailed(
    `Web search with ${provider} failed: ${provider} answered with JSON of an unexpected shape (${what}). ${advice}`,
  );
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const points = Array.from(flat);
  return points.length <= max
    ? flat
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** One provider result → a SearchResult, or null when its URL is missing or not http(s). */
export function toSearchResult(title: unknown, url: unknown, snippet: unknown): SearchResult | null {
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const href = parsed.href;
  const cleanTitle = typeof title === 'string' ? clip(title, TITLE_MAX_CHARS) : '';
  return {
    title: cleanTitle || clip(href, TITLE_MAX_CHARS),
    url: href,
    snippet: typeof snippet === 'string' ? clip(snippet, SNIPPET_MAX_CHARS) : '',
  };
}

/** Maps raw items, drops unusable ones and stops at maxResults. */
export function collectResults(
  items: unknown[],
  pick: (item: Record<string, unknown>) => SearchResult | null,
  maxResults: number,
): SearchResult[] {
  const results: SearchResult[] = [];
  for (const item of items) {
    if (results.length >= maxResults) break;
    if (!isRecord(item)) continue;
    const result = pick(item);
    if (result) results.push(result);
  }
  return results;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'" };

/** Brave marks query words with <strong> and escapes entities in titles and descriptions: plain text for us. */
export function plainText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .replace(/<\/?[a-zA-Z][^<>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39|#x27);/g, (_, name: string) => ENTITIES[name] ?? '');
}
