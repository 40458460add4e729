import { useId } from 'react';
import type { ThreadSummary } from '../api/chat';
import { Button } from '../components/Button';
import { formatDateTime } from '../lib/format';
import { groupThreads } from './threadGroups';

interface ThreadPickerProps {
  threads: ThreadSummary[];
  /** null: a new conversation, created with the first message. */
  threadId: string | null;
  disabled: boolean;
  deleting: boolean;
  onPick: (threadId: string | null) => void;
  onDelete: (thread: ThreadSummary) => void;
}

/** Which of your conversations about the document is shown, grouped by when; a new one, or deleting the one shown. */
export function ThreadPicker({ threads, threadId, disabled, deleting, onPick, onDelete }: ThreadPickerProps) {
  const id = useId();
  const current = threads.find((thread) => thread.id === threadId);
  return (
    <div className="flex items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="block text-xs font-medium text-slate-700">
          Conversation
        </label>
        <select
          id={id}
          value={threadId ?? ''}
          disabled={disabled}
          onChange={(event) => onPick(event.target.value === '' ? null : event.target.value)}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-2 text-sm text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50"
        >
          <option value="">New conversation</option>
          {groupThreads(threads, new Date()).map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.threads.map((thread) => (
                <option key={thread.id} value={thread.id}>
                  {thread.title} · {formatDateTime(thread.updated_at)}
                </option>
              ))}
            </optgroup>
          ))}
          {threadId !== null && !current && <option value={threadId}>This conversation</option>}
        </select>
      </div>
      <Button variant="secondary" disabled={disabled || threadId === null} onClick={() => onPick(null)}>
        New
      </Button>
      <Button
        variant="danger"
        disabled={disabled || deleting || !current}
        onClick={() => current && onDelete(current)}
        aria-label="Delete conversation"
      >
        Delete
      </Button>
    </div>
  );
}
