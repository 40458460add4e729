import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { boundShortcutKeys, SHORTCUTS, subscribeToBindings, useShortcut } from './shortcuts';

let snapshot = boundShortcutKeys();
const subscribe = (listener: () => void) =>
  subscribeToBindings(() => {
    snapshot = boundShortcutKeys();
    listener();
  });

/** `?` (or the account menu) opens the list of shortcuts; the ones this page offers are shown as available. */
export function ShortcutsDialog() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const bound = useSyncExternalStore(subscribe, () => snapshot);
  useShortcut('?', () => setOpen(true));

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="shortcuts-title"
      onClose={() => setOpen(false)}
      className="m-auto w-full max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/40"
    >
      <div className="p-5">
        <div className="flex items-center justify-between">
          <h2 id="shortcuts-title" className="text-base font-semibold">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            onClick={() => setOpen(false)}
            className="rounded px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-500"
          >
            Close
          </button>
        </div>
        <p className="mt-1 text-xs text-slate-500">
          They work when you are not typing in a field. Greyed ones do nothing on this page.
        </p>
        <table className="mt-3 w-full text-sm">
          <tbody className="divide-y divide-slate-100">
            {SHORTCUTS.map((shortcut) => {
              const available = bound.has(shortcut.key);
              return (
                <tr key={shortcut.key} className={available ? '' : 'text-slate-400'} aria-disabled={!available}>
                  <td className="w-12 py-1.5">
                    <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs">
                      {shortcut.key}
                    </kbd>
                  </td>
                  <td className="py-1.5">{shortcut.label}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </dialog>
  );
}
