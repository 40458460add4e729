import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useShortcut } from '../shortcuts/shortcuts';
import { MentionList, optionId } from './MentionList';
import { filterChoices, type MentionChoice, openMentionAt, tokenOf } from './mentions';
import { useMentionChoices } from './useMentionChoices';

interface MentionInputProps {
  orgId: string;
  value: string;
  onChange: (value: string) => void;
  /** The mentions chosen so far; those whose token is still in the text are sent. */
  chosen: MentionChoice[];
  onChoose: (choice: MentionChoice) => void;
  onSubmit: () => void;
  /** Esc with no mention list open (stops a running turn). */
  onEscape: () => void;
  placeholder: string;
}

/** The message box: Enter sends, Shift+Enter starts a new line, @ mentions a schema, prompt or tag. */
export function MentionInput({ orgId, value, onChange, chosen, onChoose, onSubmit, onEscape, placeholder }: MentionInputProps) {
  const id = useId();
  const listId = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once a chosen mention's text is in the box: placed as that render lands,
  // before the next key is typed (a later frame would let a fast typist's key land at the end).
  const caretAfterChoice = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text the choice made lands
  useLayoutEffect(() => {
    if (caretAfterChoice.current === null) return;
    box.current?.setSelectionRange(caretAfterChoice.current, caretAfterChoice.current);
    caretAfterChoice.current = null;
  }, [value]);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const { choices, loading } = useMentionChoices(orgId, query !== null);
  const matches = query === null ? [] : filterChoices(choices, query.query);
  // Names have spaces, so a space does not end a mention; one that matches nothing any more does.
  useShortcut('/', () => box.current?.focus());
  const open = query !== null && !(matches.length === 0 && !loading && /\s/.test(query.query));

  function track(text: string, caret: number) {
    const next = openMentionAt(text, caret, chosen);
    setQuery(next);
    if (next?.query !== query?.query) setActive(0);
  }

  function choose(choice: MentionChoice) {
    if (query === null) return;
    const caret = box.current?.selectionStart ?? value.length;
    const token = `${tokenOf(choice)} `;
    const next = `${value.slice(0, query.start)}${token}${value.slice(caret)}`;
    onChange(next);
    onChoose(choice);
    setQuery(null);
    caretAfterChoice.current = query.start + token.length;
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.nativeEvent.isComposing) return;
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (matches.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + matches.length) % matches.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && matches.length > 0) {
        event.preventDefault();
        choose(matches[Math.min(active, matches.length - 1)] as MentionChoice);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setQuery(null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      onSubmit();
    } else if (event.key === 'Escape') {
      onEscape();
    }
  }

  const tokens = chosen.filter((choice) => value.includes(tokenOf(choice)));

  return (
    <div className="relative">
      <label htmlFor={id} className="sr-only">
        Message
      </label>
      {open && (
        <MentionList id={listId} choices={matches} active={active} loading={loading} onChoose={choose} onHover={setActive} />
      )}
      <textarea
        id={id}
        ref={box}
        value={value}
        rows={2}
        placeholder={placeholder}
        aria-controls={open ? listId : undefined}
        aria-autocomplete="list"
        aria-keyshortcuts="/"
        aria-activedescendant={open && matches.length > 0 ? optionId(listId, active) : undefined}
        onChange={(event) => {
          onChange(event.target.value);
          track(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onClick={(event) => track(event.currentTarget.value, event.currentTarget.selectionStart)}
        onBlur={() => setQuery(null)}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      />
      {tokens.length > 0 && (
        <ul aria-label="Mentioned" className="mt-1 flex flex-wrap gap-1">
          {tokens.map((choice) => (
            <li
              key={`${choice.type}:${choice.id}`}
              className="rounded-full bg-sky-100 px-2 py-0.5 text-xs text-sky-900"
              title={`${choice.type} ${choice.id}`}
            >
              {tokenOf(choice)} <span className="text-sky-700">· {choice.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
