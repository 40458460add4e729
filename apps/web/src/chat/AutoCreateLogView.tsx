import { useMemo } from 'react';
import { useAutoCreateLogQuery } from '../api/autoCreate';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { itemsOfHistory } from './historyItems';
import { MessageList } from './MessageList';

/** The headless run's conversation, replayed read-only: what the agent did, with no approvals to give. */
export function AutoCreateLogView({ orgId, documentId }: { orgId: string; documentId: string }) {
  const logQuery = useAutoCreateLogQuery(orgId, documentId);
  const items = useMemo(() => (logQuery.data ? itemsOfHistory(logQuery.data.messages) : []), [logQuery.data]);

  if (logQuery.isPending) return <LoadingState label="Loading the agent's log…" />;
  if (logQuery.isError) {
    return <ErrorAlert title="Could not load the agent's log" error={logQuery.error} onRetry={() => void logQuery.refetch()} />;
  }
  const { model } = logQuery.data;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-1">
      {model && (
        <p className="text-xs text-slate-500">
          Ran with {model}. It could only create schemas and prompts, change what it created and extract from this document; any
          other action was not allowed.
        </p>
      )}
      <MessageList
        orgId={orgId}
        items={items}
        label="Auto-create log"
        emptyText="The run left no messages."
        busy={false}
        streaming={false}
      />
    </div>
  );
}
