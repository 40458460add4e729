import { type FormEvent, useId, useState } from 'react';
import type { ThreadSummary } from '../api/chat';
import { errorMessage } from '../api/client';
import { Button } from '../components/Button';
import { Popover } from '../components/Popover';
import { formatDateTime } from '../lib/format';
import { groupThreads } from './threadGroups';

interface ThreadPickerProps {
  threads: ThreadSummary[];
  /** null: a new conversation, created with the first message. */
  threadId: string | null;
  disabled: boolean;
  deleting: boolean;
  onPick: (threadId: string) => void;
  onDelete: (thread: ThreadSummary) => void;
  /** Resolves once the new title is stored; rejects with the reason it was not. */
  onRename: (thread: ThreadSummary, title: string) => Promise<void>;
}

const rowButton =
  'rounded px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-200 hover:text-slate-900 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-slate-500';

/** One conversation's new title, typed in place of its row; Escape gives up. */
function RenameForm({
  thread,
  onRename,
  onDone,
}: {
  thread: ThreadSummary;
  onRename: ThreadPickerProps['onRename'];
  onDone: () => void;
}) {
  const id = useId();
  const [title, setTitle] = useState(thread.title);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    const next = title.trim();
    if (next === '' || next === thread.title) return onDone();
    setSaving(true);
    try {
      await onRename(thread, next);
      onDone();
    } catch (caught) {
      setError(`The title was not saved: ${errorMessage(caught)}`);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form aria-label={`Rename “${thread.title}”`} className="space-y-1 px-1.5 py-1" onSubmit={(event) => void save(event)}>
      <label htmlFor={id} className="sr-only">
        New title
      </label>
      <div className="flex items-center gap-1">
        <input
          id={id}
          // biome-ignore lint/a11y/noAutofocus: the person just asked to rename this conversation
          autoFocus
          value={title}
          maxLength={200}
          disabled={saving}
          onChange={(event) => setTitle(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Gives up the rename only; the list stays open.
            event.stopPropagation();
            onDone();
          }}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-2 py-1 text-sm focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
        />
        <Button type="submit" className="px-2 py-1 text-xs" disabled={saving || title.trim() === ''}>
          Save
        </Button>
        <Button variant="secondary" className="px-2 py-1 text-xs" disabled={saving} onClick={onDone}>
          Cancel
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * Which of your conversations about the document is shown: a compact control whose list (grouped
 * by when they last changed) opens a conversation, renames or deletes one.
 */
export function ThreadPicker({ threads, threadId, disabled, deleting, onPick, onDelete, onRename }: ThreadPickerProps) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const current = threads.find((thread) => thread.id === threadId);
  const shown = threadId === null ? 'New conversation' : (current?.title ?? 'This conversation');

  return (
    <Popover
      title="Conversations"
      className="min-w-0 flex-1"
      summaryClassName="h-8 min-w-0 border border-slate-300 bg-white px-2 text-sm text-slate-900 hover:bg-slate-50"
      panelClassName="inset-x-0 top-full mt-1 max-h-[min(28rem,60vh)] p-1"
      summary={
        <span className="min-w-0 flex-1 truncate" title={shown}>
          <span className="sr-only">Conversation: </span>
          {shown}
        </span>
      }
    >
      {(close) => (
        <>
          {threads.length === 0 && <p className="px-2 py-3 text-sm text-slate-500">No conversations about this document yet.</p>}
          {groupThreads(threads, new Date()).map((group) => (
            <section key={group.label} aria-label={group.label} className="py-1">
              <h3 className="px-2 pb-0.5 text-[0.7rem] font-semibold tracking-wide text-slate-500 uppercase">{group.label}</h3>
              <ul>
                {group.threads.map((thread) =>
                  renaming === thread.id ? (
                    <li key={thread.id}>
                      <RenameForm thread={thread} onRename={onRename} onDone={() => setRenaming(null)} />
                    </li>
                  ) : (
                    <li
                      key={thread.id}
                      className={`group/thread flex items-center gap-1 rounded-md pr-1 hover:bg-slate-100 ${thread.id === threadId ? 'bg-slate-100' : ''}`}
                    >
                      <button
                        type="button"
                        disabled={disabled}
                        aria-current={thread.id === threadId || undefined}
                        onClick={() => {
                          close();
                          if (thread.id !== threadId) onPick(thread.id);
                        }}
                        className="flex min-w-0 flex-1 flex-col items-start rounded-md px-2 py-1 text-left focus-visible:outline-2 focus-visible:outline-slate-500 disabled:cursor-not-allowed disabled:opacity-60"
                      >
                        <span className="w-full truncate text-sm text-slate-900">{thread.title}</span>
                        <span className="text-xs text-slate-500">{formatDateTime(thread.updated_at)}</span>
                      </button>
                      <button
                        type="button"
                        className={rowButton}
                        aria-label={`Rename “${thread.title}”`}
                        onClick={() => setRenaming(thread.id)}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className={`${rowButton} text-red-700 hover:bg-red-50 hover:text-red-800`}
                        aria-label={`Delete “${thread.title}”`}
                        disabled={disabled || deleting}
                        onClick={() => onDelete(thread)}
                      >
                        Delete
                      </button>
                    </li>
                  ),
                )}
              </ul>
            </section>
          ))}
        </>
      )}
    </Popover>
  );
}
