import { useEffect, useRef } from 'react';

/**
 * Every keyboard shortcut the app has, in the order the `?` list shows them. A page offers one by
 * binding a handler with `useShortcut`; the list marks the ones the current page has bound.
 */
export const SHORTCUTS = [
  { key: '?', label: 'Show the keyboard shortcuts' },
  { key: '/', label: 'Write to the agent (focus the message box)' },
  { key: 'a', label: 'Approve the pending action' },
  { key: 'r', label: 'Reject the pending action' },
  { key: 'j', label: 'Next document' },
  { key: 'k', label: 'Previous document' },
  { key: '[', label: 'Show or hide the side panel' },
  { key: ']', label: 'Show or hide the agent panel' },
] as const;

export type ShortcutKey = (typeof SHORTCUTS)[number]['key'];

type Handler = () => void;
/** Bindings per key, the latest last: a dialog bound over a page takes the key while it is open. */
const bindings = new Map<ShortcutKey, Handler[]>();
const listeners = new Set<() => void>();

export function boundShortcutKeys(): Set<ShortcutKey> {
  return new Set([...bindings].filter(([, handlers]) => handlers.length > 0).map(([key]) => key));
}

export function subscribeToBindings(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** Binds a shortcut while the component is mounted and `enabled`; the handler may change on every render. */
export function useShortcut(key: ShortcutKey, handler: Handler, enabled = true): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const bound: Handler = () => latest.current();
    bindings.set(key, [...(bindings.get(key) ?? []), bound]);
    notify();
    return () => {
      bindings.set(
        key,
        (bindings.get(key) ?? []).filter((candidate) => candidate !== bound),
      );
      notify();
    };
  }, [key, enabled]);
}

/** Runs what the key does on this page, as pressing it would (a menu item that names a shortcut). */
export function runShortcut(key: ShortcutKey): void {
  bindings.get(key)?.at(-1)?.();
}

/** Typing in a field, or a key with a modifier, is never a shortcut. */
function isShortcutEvent(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing || event.defaultPrevented) return false;
  // Inside a shadow root (the note editor's) the event's target is its host: the first of its path is where it was typed.
  const target = event.composedPath()[0] ?? event.target;
  if (!(target instanceof HTMLElement)) return true;
  if (target.isContentEditable) return false;
  return !['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** The one keyboard listener: installed once, by the app's layout. */
export function useShortcutListener(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShortcutEvent(event)) return;
      const key = event.key as ShortcutKey;
      if (!bindings.get(key)?.length) return;
      event.preventDefault();
      runShortcut(key);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
