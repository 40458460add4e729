import { useState } from 'react';
import { ChatPanel } from '../chat/ChatPanel';

/**
 * The data analyst beside the dataset, as the agent panel sits beside a document: the full height,
 * its row of controls in the header so that the conversation gets that row, the composer always in view.
 */
export function DatasetAgentPanel({ orgId, datasetId }: { orgId: string; datasetId: string }) {
  const [controls, setControls] = useState<HTMLElement | null>(null);
  return (
    <section aria-label="Agent panel" className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <div className="flex shrink-0 items-center gap-2 border-b border-slate-200 px-3">
        <h2 className="text-sm font-semibold text-slate-900">Agent</h2>
        <div ref={setControls} className="min-w-0 flex-1 py-1.5" />
      </div>
      <div className="relative min-h-0 flex-1 overflow-hidden px-3 pt-2 pb-3">
        <ChatPanel
          orgId={orgId}
          subject={{ kind: 'dataset', id: datasetId }}
          controlsSlot={controls}
          emptyText="Ask the agent about this dataset: it queries the tables for you, and its runs show in the history."
        />
      </div>
    </section>
  );
}
