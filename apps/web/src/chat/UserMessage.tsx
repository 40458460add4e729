import { useId, useState } from 'react';
import { Button } from '../components/Button';
import type { ChatItem } from './chatItems';

interface UserMessageProps {
  item: Extract<ChatItem, { kind: 'user' }>;
  /** Given when the message can be edited and sent again (it is stored and no turn runs). */
  onResubmit?: (text: string) => void;
}

/** A message of the person; a stored one can be edited and sent again, which drops what followed it. */
export function UserMessage({ item, onResubmit }: UserMessageProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();

  if (draft !== null && onResubmit) {
    return (
      <form
        aria-label="Edit message"
        className="ml-auto max-w-[85%] space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.trim() === '') return;
          onResubmit(draft.trim());
          setDraft(null);
        }}
      >
        <label htmlFor={id} className="sr-only">
          Edited message
        </label>
        <textarea
          id={id}
          value={draft}
          rows={3}
          onChange={(event) => setDraft(event.target.value)}
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
        />
        <p className="text-xs text-slate-500">Sending drops the rest of the conversation after this message.</p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDraft(null)}>
            Cancel
          </Button>
          <Button type="submit" disabled={draft.trim() === ''}>
            Send edited
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div className="group flex items-start justify-end gap-1">
      {onResubmit && (
        <button
          type="button"
          onClick={() => setDraft(item.text)}
          className="invisible mt-1 rounded px-1.5 py-0.5 text-xs text-slate-500 group-hover:visible hover:bg-slate-200 focus-visible:visible"
        >
          Edit
        </button>
      )}
      <div className="max-w-[85%] rounded-lg rounded-tr-sm bg-slate-900 px-3 py-2 text-sm whitespace-pre-wrap break-words text-white">
        {item.text}
      </div>
    </div>
  );
}
