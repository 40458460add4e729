import { useState } from 'react';
import type { ChatSubject } from '../api/chatRoutes';
import { ChatPanel } from './ChatPanel';

/**
 * The agent beside a dataset or a project, as the agent panel sits beside a document: the full
 * height, its row of controls in the header so that the conversation gets that row, the composer
 * always in view.
 */
export function SubjectAgentPanel({ orgId, subject, emptyText }: { orgId: string; subject: ChatSubject; emptyText: string }) {
  const [controls, setControls] = useState<HTMLElement | null>(null);
  return (
    <section aria-label="Agent panel" className="flex min-h-0 flex-col rounded-lg border border-slate-200 bg-white">
      <div className="flex shrink-0 items-center gap-2 border-b border-slate-200 px-3">
        <h2 className="text-sm font-semibold text-slate-900">Agent</h2>
        <div ref={setControls} className="min-w-0 flex-1 py-1.5" />
      </div>
      <div className="relative min-h-0 flex-1 overflow-hidden px-3 pt-2 pb-3">
        <ChatPanel orgId={orgId} subject={subject} controlsSlot={controls} emptyText={emptyText} />
      </div>
    </section>
  );
}
