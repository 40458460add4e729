import { Button } from '../components/Button';

interface RunButtonProps {
  /** "Run" for a prompt without a result, "Re-run" to replace one. */
  label: 'Run' | 'Re-run';
  promptName: string;
  running: boolean;
  disabled?: boolean;
  onRun: () => void;
}

export function RunButton({ label, promptName, running, disabled, onRun }: RunButtonProps) {
  return (
    <Button
      variant="secondary"
      aria-label={`${label} ${promptName}`}
      aria-busy={running || undefined}
      disabled={running || disabled}
      onClick={onRun}
      className="gap-2"
    >
      {running && (
        <span aria-hidden="true" className="size-3.5 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700" />
      )}
      {running ? 'Running…' : label}
    </Button>
  );
}
