import { useState } from 'react';
import { DiffView } from '../components/DiffView';
import { SegmentedControl } from '../components/SegmentedControl';
import { ChatMarkdown } from './Markdown';

/** What rewrite_note proposes before it is approved: approving applies exactly `content`. */
export interface RewriteProposal {
  note_id: string;
  note_name: string;
  base_version: number;
  content: string;
  diff: string;
  additions: number;
  deletions: number;
  section: string | null;
}

/** The call's proposal, when it is a rewrite of a note. */
export function rewriteProposalOf(name: string, proposal: unknown): RewriteProposal | null {
  if (name !== 'rewrite_note' || typeof proposal !== 'object' || proposal === null) return null;
  const candidate = proposal as Partial<RewriteProposal>;
  return typeof candidate.diff === 'string' && typeof candidate.content === 'string' ? (candidate as RewriteProposal) : null;
}

type View = 'diff' | 'text';

const views = [
  { id: 'diff', label: 'Changes' },
  { id: 'text', label: 'Proposed text' },
] as const;

/** A proposed rewrite of a note: the unified diff against the version it was made on, or the whole proposed text. */
export function NoteProposal({ orgId, proposal, maxHeight }: { orgId: string; proposal: RewriteProposal; maxHeight?: string }) {
  const [view, setView] = useState<View>('diff');
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
        <SegmentedControl legend="Show the proposal as" options={views} value={view} onChange={setView} />
        <span>
          on version {proposal.base_version} of “{proposal.note_name}”{proposal.section ? `, section “${proposal.section}”` : ''}
        </span>
      </div>
      {view === 'diff' ? (
        <DiffView
          diff={proposal.diff}
          label={`Proposed changes to ${proposal.note_name}`}
          additions={proposal.additions}
          deletions={proposal.deletions}
          maxHeight={maxHeight}
        />
      ) : (
        <section
          aria-label={`Proposed text of ${proposal.note_name}`}
          className={`${maxHeight ?? 'max-h-96'} overflow-auto rounded-md border border-slate-200 bg-white px-2 py-1.5 text-sm text-slate-800`}
        >
          <ChatMarkdown text={proposal.content} orgId={orgId} />
        </section>
      )}
    </div>
  );
}
