import { useState } from 'react';
import { ChatPanel } from '../chat/ChatPanel';

/**
 * The agent beside the project, as the agent panel sits beside a document: the full height,
 * its row of controls in the header so that the conversation gets that row, the composer always in view.
 */
export function ProjectAgentPanel({ orgId, projectId }: { orgId: string; projectId: string }) {
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
          subject={{ kind: 'project', id: projectId }}
          controlsSlot={controls}
          emptyText="Ask the agent to write or update a note of this project: it proposes each change as a diff for you to approve, and can search the web."
        />
      </div>
    </section>
  );
}
