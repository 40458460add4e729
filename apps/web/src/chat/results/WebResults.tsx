import type { WebResult } from './resultShapes';

/** Only web addresses become links: a result's URL is the search provider's word, not ours. */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** What a web search found: each result a link (a new tab) with its snippet. */
export function WebResults({ query, provider, results }: { query: string; provider: string | null; results: WebResult[] }) {
  return (
    <section aria-label={`Web results for ${query}`} className="space-y-1">
      <p className="text-xs text-slate-700">
        {results.length === 0 ? 'Nothing found' : `${results.length} result${results.length === 1 ? '' : 's'}`} for “{query}”
        {provider && <span className="text-slate-500"> · {provider}</span>}
      </p>
      <ol className="space-y-1.5">
        {results.map((result, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a search's results never move
          <li key={index} className="text-xs">
            {isWebUrl(result.url) ? (
              <a
                href={result.url}
                target="_blank"
                rel="noopener noreferrer"
                className="font-medium text-sky-800 underline-offset-2 hover:underline"
              >
                {result.title}
              </a>
            ) : (
              <span className="font-medium text-slate-900">{result.title}</span>
            )}
            <span className="block truncate text-slate-500" title={result.url}>
              {result.url}
            </span>
            {result.snippet && <span className="line-clamp-2 block text-slate-700">{result.snippet}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
