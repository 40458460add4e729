import { ChatMarkdown } from './Markdown';
import { NoteProposal, rewriteProposalOf } from './NoteProposal';

interface CallPreviewProps {
  orgId: string;
  name: string;
  args: unknown;
  proposal: unknown;
  /** Waiting for the person: shown open, since it is what they decide on. */
  open: boolean;
}

const contentOf = (args: unknown): string | null => {
  const content = (args as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : null;
};

/** What a call will write, as a person judges it: a note's rewrite as a diff, a new note as Markdown. */
export function CallPreview({ orgId, name, args, proposal, open }: CallPreviewProps) {
  const rewrite = rewriteProposalOf(name, proposal);
  if (rewrite) {
    return (
      <details open={open} className="border-t border-slate-100 px-3 py-1.5">
        <summary className="cursor-pointer text-xs text-slate-600">Proposed changes</summary>
        <div className="mt-1">
          <NoteProposal orgId={orgId} proposal={rewrite} maxHeight="max-h-72" />
        </div>
      </details>
    );
  }
  const content = name === 'create_note' ? contentOf(args) : null;
  if (content !== null) {
    return (
      <details open={open} className="border-t border-slate-100 px-3 py-1.5">
        <summary className="cursor-pointer text-xs text-slate-600">Content of the note</summary>
        <section
          aria-label="Content of the new note"
          className="mt-1 max-h-72 overflow-auto rounded-md border border-slate-200 px-2 py-1.5 text-sm text-slate-800"
        >
          {content === '' ? <p className="text-xs text-slate-500">Empty.</p> : <ChatMarkdown text={content} orgId={orgId} />}
        </section>
      </details>
    );
  }
  return null;
}
