import { Button } from '../components/Button';

interface ConflictNoticeProps {
  /** The version the person's text was started from, and the note's now. */
  baseVersion: number;
  currentVersion: number;
  busy: boolean;
  onReload: () => void;
  onOverwrite: () => void;
}

/** The note changed meanwhile: the person's text stays here until they choose what to do with it. */
export function ConflictNotice({ baseVersion, currentVersion, busy, onReload, onOverwrite }: ConflictNoticeProps) {
  return (
    <div role="alert" className="space-y-1.5 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p>
        <span className="font-medium">This note changed meanwhile</span>
        {currentVersion > baseVersion ? ` (you started from version ${baseVersion}, it is at version ${currentVersion} now)` : ''}
        . Your text is kept here and was not saved; see what changed under History.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" className="px-2.5 py-1" disabled={busy} onClick={onReload}>
          Reload the note (drop my changes)
        </Button>
        <Button className="px-2.5 py-1" disabled={busy} onClick={onOverwrite}>
          Save my text as the next version
        </Button>
      </div>
    </div>
  );
}
