import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/** How long the page's results are waited for before the request to focus a field is dropped. */
const WAIT_MS = 30_000;

/** A field's input in the Extraction panel: of the result of `source` when there is one, else of any result. */
function fieldInput(path: string, source: string | null): HTMLElement | null {
  const byPath = `[data-citation-path="${CSS.escape(path)}"]`;
  const wrapper =
    (source ? document.querySelector(`[data-citation-source="${CSS.escape(source)}"]${byPath}`) : null) ??
    document.querySelector(byPath);
  return wrapper?.querySelector<HTMLElement>('input, select, textarea') ?? null;
}

/**
 * `?field=<path>[&prompt_revid=<revision>]` on the document page (a link from an evaluation's
 * differences): once the results are shown, focuses that field, which highlights its citation.
 */
export function useFocusFieldFromUrl(): void {
  const [searchParams] = useSearchParams();
  const path = searchParams.get('field');
  const source = searchParams.get('prompt_revid');

  useEffect(() => {
    if (!path) return;
    const focus = () => {
      const input = fieldInput(path, source);
      if (!input) return false;
      input.focus();
      input.scrollIntoView({ block: 'center' });
      return true;
    };
    if (focus()) return;
    const observer = new MutationObserver(() => {
      if (focus()) stop();
    });
    const timer = window.setTimeout(() => stop(), WAIT_MS);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
    }
    observer.observe(document.body, { childList: true, subtree: true });
    return stop;
  }, [path, source]);
}
