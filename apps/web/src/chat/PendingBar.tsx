import { Button } from '../components/Button';

interface PendingBarProps {
  count: number;
  undecided: number;
  onApproveAll: () => void;
  onRejectAll: () => void;
}

/** The turn waits for approvals: decide each card above, or all the undecided ones at once. */
export function PendingBar({ count, undecided, onApproveAll, onRejectAll }: PendingBarProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <span>
        {count === 1
          ? 'The agent waits for your approval of the action above.'
          : `The agent waits for your approval of ${count} actions (${undecided} undecided).`}
      </span>
      {count > 1 && (
        <div className="flex gap-2">
          <Button onClick={onApproveAll}>Approve all</Button>
          <Button variant="secondary" onClick={onRejectAll}>
            Reject all
          </Button>
        </div>
      )}
    </div>
  );
}
