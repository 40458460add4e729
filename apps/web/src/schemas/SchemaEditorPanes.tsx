import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useElementWidth } from '../lib/useElementWidth';

/** Below this width the builder and the JSON are too cramped side by side, and become two tabs. */
const SIDE_BY_SIDE_MIN_PX = 880;

type Pane = 'fields' | 'json';
const PANES: [Pane, string][] = [
  ['fields', 'Fields'],
  ['json', 'JSON'],
];

interface SchemaEditorPanesProps {
  fields: ReactNode;
  json: ReactNode;
}

/** The field builder and the JSON side by side when there is room, else as the tabs "Fields" and "JSON". */
export function SchemaEditorPanes({ fields, json }: SchemaEditorPanesProps) {
  const frame = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frame);
  const [shown, setShown] = useState<Pane>('fields');
  const baseId = useId();
  const tabId = (pane: Pane) => `${baseId}-${pane}-tab`;
  const panelId = (pane: Pane) => `${baseId}-${pane}-panel`;
  const tabs = width < SIDE_BY_SIDE_MIN_PX;

  // Arrow keys move between the tabs, as in every tab list.
  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next: Pane = shown === 'fields' ? 'json' : 'fields';
    setShown(next);
    document.getElementById(tabId(next))?.focus();
  }

  // One tree in both layouts, so that crossing the width keeps what is typed and focused.
  return (
    <div ref={frame} className="space-y-3">
      {tabs && (
        <div role="tablist" aria-label="Schema views" className="flex gap-1 border-b border-slate-200" onKeyDown={handleKeyDown}>
          {PANES.map(([pane, label]) => (
            <button
              key={pane}
              type="button"
              role="tab"
              id={tabId(pane)}
              aria-selected={shown === pane}
              aria-controls={panelId(pane)}
              tabIndex={shown === pane ? 0 : -1}
              onClick={() => setShown(pane)}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${shown === pane ? 'border-slate-900 text-slate-900' : 'border-transparent text-slate-500 hover:text-slate-800'}`}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      <div className={tabs ? '' : 'grid grid-cols-[minmax(0,11fr)_minmax(0,9fr)] items-start gap-6'}>
        {PANES.map(([pane]) => (
          <div
            key={pane}
            id={panelId(pane)}
            {...(tabs ? { role: 'tabpanel', 'aria-labelledby': tabId(pane) } : {})}
            hidden={tabs && shown !== pane}
            // Beside a long list of fields the JSON stays in view, so that each change is seen in it.
            className={`min-w-0 ${!tabs && pane === 'json' ? 'sticky top-4' : ''}`}
          >
            {pane === 'fields' ? fields : json}
          </div>
        ))}
      </div>
    </div>
  );
}
