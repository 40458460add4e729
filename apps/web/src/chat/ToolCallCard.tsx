import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage, type InputProblem } from '../api/client';
import { Button } from '../components/Button';
import { CallPreview } from './CallPreview';
import type { ToolItem, ToolStatus } from './chatItems';
import { ToolResult } from './results/ToolResult';
import { checkArguments, formatArguments, summarizeArguments } from './toolArguments';
import { describeCall } from './toolSentences';
import { UndoWrite } from './UndoWrite';
import { useCallNames } from './useCallNames';

const statusLabels: Record<ToolStatus, string> = {
  pending: 'waiting for approval',
  running: 'running',
  done: 'done',
  failed: 'failed',
  rejected: 'rejected',
  denied: 'not allowed',
  stopped: 'stopped',
};

const statusClasses: Record<ToolStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  running: 'bg-sky-100 text-sky-900',
  done: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-800',
  rejected: 'bg-slate-200 text-slate-700',
  denied: 'bg-orange-100 text-orange-900',
  stopped: 'bg-slate-200 text-slate-700',
};

/** How the reason a call did not succeed is shown: a fault in red, a decision quietly. */
const errorClasses: Partial<Record<ToolStatus, string>> = {
  failed: 'border-red-100 bg-red-50 text-red-700',
  rejected: 'border-slate-100 text-slate-600',
  stopped: 'border-slate-100 text-slate-600',
  denied: 'border-orange-100 bg-orange-50 text-orange-900',
};

/** A person's answer to one pending call. */
export interface Decision {
  approved: boolean;
  /** Edited arguments, when the person changed them. */
  arguments?: unknown;
  /** Approve from now on without asking: every call of this tool, or calls like this one (a rule of yours). */
  always?: 'tool' | 'like_this';
}

interface ToolCallCardProps {
  orgId: string;
  item: ToolItem;
  /** For a pending call: what the person decided so far, and how to decide. */
  decision?: Decision;
  onDecide?: (decision: Decision) => void;
  /** The approval is being sent: no more changes. */
  busy?: boolean;
  /** Checks edited arguments against the tool's input schema, as running it would. */
  validate?: (args: Record<string, unknown>) => Promise<InputProblem[]>;
  /** Offers this card's Approve (with its edited arguments) to the approval pinned above the message box. */
  onRegisterApprove?: (callId: string, approve: () => void) => () => void;
  /** For the last write of an ended turn, when it can be undone: undoes it (rejects with why not). */
  onUndo?: () => Promise<void>;
}

/** One tool call of the agent: its name, arguments and outcome; a pending one asks for approval. */
export function ToolCallCard({ orgId, item, decision, onDecide, busy, validate, onRegisterApprove, onUndo }: ToolCallCardProps) {
  const labelId = useId();
  const card = useRef<HTMLElement>(null);
  const pending = item.status === 'pending' && onDecide !== undefined;
  const [draft, setDraft] = useState<string | null>(null);
  const [draftError, setDraftError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const locked = busy || checking || decision !== undefined;
  const names = useCallNames(orgId, item.arguments, item.proposal);

  async function approve(always?: Decision['always']) {
    if (draft === null) {
      onDecide?.({ approved: true, always });
      return;
    }
    const checked = checkArguments(draft);
    if (!checked.ok) {
      setDraftError(checked.error);
      return;
    }
    const edited = JSON.stringify(checked.value) !== JSON.stringify(item.arguments ?? {});
    if (!edited) {
      setDraftError(null);
      onDecide?.({ approved: true, always });
      return;
    }
    if (validate) {
      setChecking(true);
      try {
        const problems = await validate(checked.value);
        if (problems.length > 0) {
          setDraftError(problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n'));
          return;
        }
      } catch (error) {
        setDraftError(`Could not check the arguments: ${errorMessage(error)}`);
        return;
      } finally {
        setChecking(false);
      }
    }
    setDraftError(null);
    onDecide?.({ approved: true, arguments: checked.value, always });
  }

  // The pinned approval approves what this card shows: with an edit open, the edit, checked here, in view.
  const approveHere = useRef<() => Promise<void>>(() => approve());
  approveHere.current = async () => {
    if (locked) return;
    if (draft !== null) card.current?.scrollIntoView({ block: 'nearest' });
    await approve();
  };
  const offered = pending && decision === undefined;
  useEffect(
    () => (offered && onRegisterApprove ? onRegisterApprove(item.callId, () => void approveHere.current()) : undefined),
    [offered, onRegisterApprove, item.callId],
  );

  return (
    <section
      ref={card}
      aria-labelledby={labelId}
      className={`rounded-md border bg-white text-sm ${pending ? 'border-amber-300' : item.status === 'failed' ? 'border-red-200' : 'border-slate-200'}`}
    >
      <div className="flex items-center justify-between gap-2 px-3 pt-2">
        <h4 id={labelId} className="min-w-0 truncate font-mono text-xs font-semibold text-slate-900">
          <span className="sr-only">Tool call </span>
          {item.name}
        </h4>
        <span
          className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${item.undone !== undefined ? 'bg-slate-200 text-slate-700' : statusClasses[item.status]}`}
        >
          {decision && item.status === 'pending'
            ? decision.approved
              ? 'approved'
              : 'rejected'
            : item.undone !== undefined
              ? 'undone'
              : statusLabels[item.status]}
        </span>
      </div>
      <p className="truncate px-3 pb-2 text-xs text-slate-600" title={summarizeArguments(item.arguments)}>
        {describeCall(item.name, item.arguments, names)}
      </p>
      <CallPreview orgId={orgId} name={item.name} args={item.arguments} proposal={item.proposal} open={pending} />
      {pending && draft !== null ? (
        <div className="space-y-1 border-t border-amber-200 bg-amber-50/50 px-3 py-2">
          <label htmlFor={`${labelId}-args`} className="block text-xs font-medium text-slate-700">
            Arguments for {item.name}
          </label>
          <textarea
            id={`${labelId}-args`}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              setDraftError(null);
            }}
            disabled={locked}
            rows={Math.min(14, draft.split('\n').length + 1)}
            spellCheck={false}
            aria-invalid={draftError !== null || undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs leading-5 text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none aria-invalid:border-red-400"
          />
          {draftError && (
            <p role="alert" className="text-xs text-red-700">
              {draftError}
            </p>
          )}
        </div>
      ) : (
        // Folded even while pending: the approval pinned below shows the call, and a long JSON would push the rest away.
        <details className="border-t border-slate-100 px-3 py-1.5">
          <summary className="cursor-pointer text-xs text-slate-600">Arguments</summary>
          <pre className="mt-1 max-h-64 overflow-auto font-mono text-xs whitespace-pre-wrap break-words text-slate-800">
            {formatArguments(item.arguments)}
          </pre>
        </details>
      )}
      {pending && decision === undefined && (
        <div className="flex flex-wrap gap-2 border-t border-amber-200 bg-amber-50/50 px-3 py-2">
          <Button disabled={locked} onClick={() => void approve()} aria-label={`Approve ${item.name}`}>
            Approve
          </Button>
          <Button
            variant="secondary"
            disabled={locked}
            onClick={() => onDecide?.({ approved: false })}
            aria-label={`Reject ${item.name}`}
          >
            Reject
          </Button>
          {draft === null && (
            <Button
              variant="secondary"
              disabled={locked}
              onClick={() => setDraft(formatArguments(item.arguments))}
              aria-label={`Edit arguments of ${item.name}`}
            >
              Edit arguments
            </Button>
          )}
          <Button
            variant="secondary"
            disabled={locked}
            onClick={() => void approve('tool')}
            aria-label={`Always approve ${item.name}`}
            title="Approve this call, and add a rule of yours that runs every call of this tool without asking (Settings → Rules)"
          >
            Always approve this tool
          </Button>
          <Button
            variant="secondary"
            disabled={locked}
            onClick={() => void approve('like_this')}
            aria-label={`Always approve calls like this of ${item.name}`}
            title={`Approve this call, and add a rule of yours that runs calls of ${item.name} on the same target (its ids and names) without asking (Settings → Rules)`}
          >
            Always approve calls like this
          </Button>
        </div>
      )}
      {item.preview !== null && item.preview !== '' && (
        <ToolResult orgId={orgId} result={item.result} args={item.arguments} preview={item.preview} />
      )}
      {item.error !== null && (
        <p
          role={item.status === 'failed' ? 'status' : undefined}
          className={`border-t px-3 py-1.5 text-xs whitespace-pre-wrap break-words ${errorClasses[item.status] ?? errorClasses.failed}`}
        >
          {item.status === 'failed' && <span className="font-medium">Error: </span>}
          {item.status === 'denied' && <span className="font-medium">Not allowed: </span>}
          {item.error}
        </p>
      )}
      <UndoWrite name={item.name} undone={item.undone} onUndo={onUndo} />
    </section>
  );
}
