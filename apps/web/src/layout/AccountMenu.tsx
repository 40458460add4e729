import { SignOutButton } from '../auth/SignOutButton';
import { Popover } from '../components/Popover';
import { runShortcut } from '../shortcuts/shortcuts';
import { ThemeChoices } from '../theme/ThemeChoices';

/** The signed-in person's menu: the theme, the keyboard shortcuts and signing out. */
export function AccountMenu({ email }: { email: string }) {
  return (
    <div className="relative">
      <Popover
        title="Account"
        summary={<span className="max-w-56 truncate">{email}</span>}
        summaryClassName="px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100"
        panelClassName="right-0 mt-1 w-64 space-y-3 p-3"
      >
        {(close) => (
          <>
            <div className="space-y-1">
              <p className="text-xs font-medium text-slate-500">Theme</p>
              <ThemeChoices />
            </div>
            <button
              type="button"
              onClick={() => {
                close();
                runShortcut('?');
              }}
              className="flex w-full items-center justify-between rounded px-1 py-1 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-500"
            >
              Keyboard shortcuts
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">?</kbd>
            </button>
            <div className="border-t border-slate-200 pt-3">
              <SignOutButton />
            </div>
          </>
        )}
      </Popover>
    </div>
  );
}
