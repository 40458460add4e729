import { useId, useState } from 'react';
import { Button } from '../components/Button';
import { parseJson } from '../lib/parseJson';
import type { ToolItem, ToolStatus } from './chatItems';

const statusLabels: Record<ToolStatus, string> = {
  pending: 'waiting for approval',
  running: 'running',
  done: 'done',
  failed: 'failed',
  rejected: 'rejected',
};

const statusClasses: Record<ToolStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  running: 'bg-sky-100 text-sky-900',
  done: 'bg-emerald-100 text-emerald-900',
  failed: 'bg-red-100 text-red-800',
  rejected: 'bg-slate-200 text-slate-700',
};

export const formatArguments = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

/** A person's answer to one pending call. */
export interface Decision {
  approved: boolean;
  /** Edited arguments, when the person changed them. */
  arguments?: unknown;
}

interface ToolCallCardProps {
  item: ToolItem;
  /** For a pending call: what the person decided so far, and how to decide. */
  decision?: Decision;
  onDecide?: (decision: Decision) => void;
  /** The approval is being sent: no more changes. */
  busy?: boolean;
}

/** One tool call of the agent: its name, arguments and outcome; a pending one asks for approval. */
export function ToolCallCard({ item, decision, onDecide, busy }: ToolCallCardProps) {
  const labelId = useId();
  const pending = item.status === 'pending' && onDecide !== undefined;
  const [draft, setDraft] = useState(() => formatArguments(item.arguments));
  const [draftError, setDraftError] = useState<string | null>(null);

  function approve() {
    const parsed = parseJson(draft);
    if (!parsed.ok) {
      const where = parsed.error.line === undefined ? '' : ` (line ${parsed.error.line}, column ${parsed.error.column})`;
      setDraftError(`${parsed.error.message}${where}`);
      return;
    }
    setDraftError(null);
    const edited = JSON.stringify(parsed.value) !== JSON.stringify(item.arguments ?? {});
    onDecide?.(edited ? { approved: true, arguments: parsed.value } : { approved: true });
  }

  return (
    <section
      aria-labelledby={labelId}
      className={`rounded-md border bg-white text-sm ${pending ? 'border-amber-300' : 'border-slate-200'}`}
    >
      <div className="flex items-center justify-between gap-2 px-3 py-2">
        <h4 id={labelId} className="min-w-0 truncate font-mono text-xs font-semibold text-slate-900">
          <span className="sr-only">Tool call </span>
          {item.name}
        </h4>
        <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-medium ${statusClasses[item.status]}`}>
          {decision && item.status === 'pending' ? (decision.approved ? 'approved' : 'rejected') : statusLabels[item.status]}
        </span>
      </div>
      {pending ? (
        <div className="space-y-2 border-t border-amber-200 bg-amber-50/50 px-3 py-2">
          <label htmlFor={`${labelId}-args`} className="block text-xs font-medium text-slate-700">
            Arguments for {item.name}
          </label>
          <textarea
            id={`${labelId}-args`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            disabled={busy || decision !== undefined}
            rows={Math.min(12, draft.split('\n').length + 1)}
            spellCheck={false}
            aria-invalid={draftError !== null || undefined}
            className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 font-mono text-xs leading-5 text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none aria-invalid:border-red-400"
          />
          {draftError && (
            <p role="alert" className="text-xs text-red-700">
              {draftError}
            </p>
          )}
          {decision === undefined && (
            <div className="flex gap-2">
              <Button disabled={busy} onClick={approve} aria-label={`Approve ${item.name}`}>
                Approve
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => onDecide?.({ approved: false })}
                aria-label={`Reject ${item.name}`}
              >
                Reject
              </Button>
            </div>
          )}
        </div>
      ) : (
        <details className="border-t border-slate-100 px-3 py-1.5">
          <summary className="cursor-pointer text-xs text-slate-600">Arguments</summary>
          <pre className="mt-1 overflow-x-auto font-mono text-xs whitespace-pre-wrap break-words text-slate-800">
            {formatArguments(item.arguments)}
          </pre>
        </details>
      )}
      {item.preview !== null && item.preview !== '' && (
        <pre className="overflow-x-auto border-t border-slate-100 px-3 py-1.5 font-mono text-xs whitespace-pre-wrap break-words text-slate-600">
          {item.preview}
        </pre>
      )}
      {item.error !== null && (
        <p
          className={`border-t px-3 py-1.5 text-xs whitespace-pre-wrap break-words ${item.status === 'rejected' ? 'border-slate-100 text-slate-600' : 'border-red-100 text-red-700'}`}
        >
          {item.error}
        </p>
      )}
    </section>
  );
}
