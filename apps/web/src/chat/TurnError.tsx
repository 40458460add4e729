import { Button } from '../components/Button';

/** A turn that failed (the provider, the connection), shown in the conversation where it happened. */
export function TurnError({ text, onRetry }: { text: string; onRetry?: () => void }) {
  return (
    <div
      role="alert"
      className="flex items-start justify-between gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <div className="min-w-0">
        <p className="font-medium">The agent could not answer</p>
        <p className="break-words whitespace-pre-wrap">{text}</p>
      </div>
      {onRetry && (
        <Button variant="secondary" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}
