import { type KeyboardEvent, type ReactNode, useId } from 'react';
import { useSearchParams } from 'react-router';

type Tab = 'prompt' | 'evaluation';
const TABS: [Tab, string][] = [
  ['prompt', 'Prompt'],
  ['evaluation', 'Evaluation'],
];

/** The prompt page's tabs: the prompt itself, and its evaluation; `?tab=evaluation` opens the second. */
export function PromptTabs({ prompt, evaluation }: { prompt: ReactNode; evaluation: ReactNode }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const shown: Tab = searchParams.get('tab') === 'evaluation' ? 'evaluation' : 'prompt';
  const baseId = useId();
  const tabId = (tab: Tab) => `${baseId}-${tab}-tab`;
  const panelId = (tab: Tab) => `${baseId}-${tab}-panel`;

  function show(tab: Tab) {
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (tab === 'evaluation') next.set('tab', tab);
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );
  }

  // Arrow keys move between the tabs, as in every tab list.
  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next: Tab = shown === 'prompt' ? 'evaluation' : 'prompt';
    show(next);
    document.getElementById(tabId(next))?.focus();
  }

  return (
    <div className="space-y-4">
      <div role="tablist" aria-label="Prompt views" className="flex gap-1 border-b border-slate-200" onKeyDown={handleKeyDown}>
        {TABS.map(([tab, label]) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={tabId(tab)}
            aria-selected={shown === tab}
            aria-controls={panelId(tab)}
            tabIndex={shown === tab ? 0 : -1}
            onClick={() => show(tab)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${shown === tab ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
          >
            {label}
          </button>
        ))}
      </div>
      {TABS.map(([tab]) => (
        <div key={tab} role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} hidden={shown !== tab}>
          {/* The editor stays mounted: what is typed in it survives a look at the evaluation. The
              evaluation is mounted only while shown, so that it polls nothing while hidden. */}
          {tab === 'prompt' ? prompt : shown === 'evaluation' && evaluation}
        </div>
      ))}
    </div>
  );
}
