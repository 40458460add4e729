import { useId, useState } from 'react';
import type { ToolCallInfo } from '../api/chatStream';
import { Button } from '../components/Button';
import { useShortcut } from '../shortcuts/shortcuts';
import { NoteProposal, rewriteProposalOf } from './NoteProposal';
import type { Decision } from './ToolCallCard';
import { formatArguments, summarizeArguments } from './toolArguments';
import { describeCall } from './toolSentences';
import { useCallNames } from './useCallNames';

interface PendingApprovalProps {
  orgId: string;
  /** The paused turn's calls that wait for the person. */
  pending: ToolCallInfo[];
  decisions: Record<string, Decision>;
  onApprove: (callId: string) => void;
  onReject: (callId: string) => void;
  onApproveAll: () => void;
  onRejectAll: () => void;
}

/**
 * The approval the agent waits for, pinned just above the message box so that its buttons are in
 * view however long the conversation or the call's arguments: the next undecided call in one line,
 * Approve and Reject, and its full arguments one click away. Its card in the conversation says the
 * same and is where arguments are edited.
 */
export function PendingApproval({
  orgId,
  pending,
  decisions,
  onApprove,
  onReject,
  onApproveAll,
  onRejectAll,
}: PendingApprovalProps) {
  const argumentsId = useId();
  const [showArguments, setShowArguments] = useState(false);
  const undecided = pending.filter((call) => decisions[call.id] === undefined);
  const call = undecided[0];
  useShortcut('a', () => call && onApprove(call.id), call !== undefined);
  useShortcut('r', () => call && onReject(call.id), call !== undefined);
  const names = useCallNames(orgId, call?.arguments, call?.proposal);
  if (!call) return null;
  const rewrite = rewriteProposalOf(call.name, call.proposal);
  const what = rewrite ? 'changes' : 'arguments';

  return (
    <section
      aria-label="Pending approval"
      className="space-y-1.5 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p className="truncate text-xs" title={summarizeArguments(call.arguments)}>
        <span className="font-medium text-amber-900">
          {pending.length === 1
            ? 'Waiting for your approval: '
            : `Waiting for your approval (${pending.length} actions, ${undecided.length} undecided): `}
        </span>
        <span className="font-mono font-semibold">{call.name}</span>{' '}
        <span className="text-amber-800">{describeCall(call.name, call.arguments, names)}</span>
      </p>
      <div className="flex flex-wrap items-center gap-1.5">
        <Button className="px-2.5 py-1" aria-keyshortcuts="a" title="Approve (a)" onClick={() => onApprove(call.id)}>
          Approve
        </Button>
        <Button
          variant="secondary"
          className="px-2.5 py-1"
          aria-keyshortcuts="r"
          title="Reject (r)"
          onClick={() => onReject(call.id)}
        >
          Reject
        </Button>
        <button
          type="button"
          aria-expanded={showArguments}
          aria-controls={argumentsId}
          onClick={() => setShowArguments((shown) => !shown)}
          className="rounded px-1.5 py-1 text-xs font-medium text-amber-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          {showArguments ? `Hide ${what}` : rewrite ? 'Show changes' : 'Arguments'}
        </button>
        {undecided.length > 1 && (
          <span className="ml-auto flex gap-1.5">
            <Button variant="secondary" className="px-2.5 py-1" onClick={onApproveAll}>
              Approve all
            </Button>
            <Button variant="secondary" className="px-2.5 py-1" onClick={onRejectAll}>
              Reject all
            </Button>
          </span>
        )}
      </div>
      {showArguments && rewrite && (
        <div id={argumentsId} className="rounded border border-amber-200 bg-white p-1.5">
          <NoteProposal orgId={orgId} proposal={rewrite} maxHeight="max-h-40" />
        </div>
      )}
      {showArguments && !rewrite && (
        <pre
          id={argumentsId}
          className="max-h-40 overflow-auto rounded border border-amber-200 bg-white px-2 py-1 font-mono text-xs whitespace-pre-wrap break-words text-slate-800"
        >
          {formatArguments(call.arguments)}
        </pre>
      )}
    </section>
  );
}
