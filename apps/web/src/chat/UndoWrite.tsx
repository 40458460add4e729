import { useState } from 'react';
import { errorMessage } from '../api/client';
import { Button } from '../components/Button';

interface UndoWriteProps {
  /** The call's tool, for the button's accessible name. */
  name: string;
  /** What undoing it made current again, once it was undone. */
  undone?: string;
  /** Undoes the write; rejects with why it could not. Absent: the card offers no undo. */
  onUndo?: () => Promise<void>;
}

/**
 * The foot of the card of a turn's last write: Undo, while it can be asked for; then what the undo
 * made current again. A refusal (changed since, undone already) is shown in words under the button.
 */
export function UndoWrite({ name, undone, onUndo }: UndoWriteProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (undone !== undefined) {
    return (
      <p role="status" className="border-t border-slate-100 bg-slate-50 px-3 py-1.5 text-xs text-slate-700">
        <span className="font-medium">Undone: </span>
        {undone}
      </p>
    );
  }
  if (!onUndo) return null;

  async function undo() {
    setBusy(true);
    setError(null);
    try {
      await onUndo?.();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-1 border-t border-slate-100 px-3 py-1.5">
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          disabled={busy}
          onClick={() => void undo()}
          aria-label={`Undo ${name}`}
          title="Make the version before this change current again (saved as a new version, so nothing is lost)"
        >
          {busy ? 'Undoing…' : 'Undo'}
        </Button>
        <span className="text-xs text-slate-500">The last change of this turn</span>
      </div>
      {error !== null && (
        <p role="alert" className="text-xs whitespace-pre-wrap break-words text-red-700">
          Could not undo: {error}
        </p>
      )}
    </div>
  );
}
