import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBatchQuery } from '../api/batches';
import { documentsQueryKey } from '../api/documents';
import { ErrorAlert } from '../components/ErrorAlert';
import { BatchRow } from '../prompts/BatchRow';

interface BulkPromptRunProps {
  orgId: string;
  promptId: string;
  batchId: string;
}

/**
 * The batch that runs a prompt on the chosen documents: its progress, the failed with why, cancel
 * and retry. It runs on the server: leaving the page does not stop it, and the prompt's page lists
 * it. The documents are read again when it ends, for their new state.
 */
export function BulkPromptRun({ orgId, promptId, batchId }: BulkPromptRunProps) {
  const batch = useBatchQuery(orgId, promptId, batchId);
  const queryClient = useQueryClient();
  const status = batch.data?.status;
  useEffect(() => {
    if (status !== undefined && status !== 'running') void queryClient.invalidateQueries({ queryKey: documentsQueryKey(orgId) });
  }, [status, orgId, queryClient]);
  if (batch.isError) return <ErrorAlert title="Could not read the progress of the prompt run" error={batch.error} />;
  if (!batch.data) return <p className="text-xs text-indigo-950">Starting the prompt run…</p>;
  return (
    <ul aria-label="Prompt run on the chosen documents" className="rounded border border-indigo-100 bg-white px-2">
      <BatchRow orgId={orgId} batch={batch.data} />
    </ul>
  );
}
