import { type Batch, useCancelBatchMutation, useFailedDocumentsQuery, useRetryBatchMutation } from '../api/batches';
import { ErrorAlert } from '../components/ErrorAlert';

const smallButton =
  'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

function describe(batch: Batch): string {
  const { selection } = batch;
  if (selection.name_search !== undefined) return `documents named “${selection.name_search}”`;
  if (selection.tag_ids) return `documents with ${selection.tag_ids.length === 1 ? 'a tag' : `${selection.tag_ids.length} tags`}`;
  const chosen = selection.document_ids?.length ?? 0;
  return `${chosen} chosen document${chosen === 1 ? '' : 's'}`;
}

/** One batch: its progress, what failed and why, and cancel or retry. */
export function BatchRow({ orgId, batch }: { orgId: string; batch: Batch }) {
  const cancel = useCancelBatchMutation(orgId);
  const retry = useRetryBatchMutation(orgId);
  const failed = useFailedDocumentsQuery(orgId, batch);
  const { counts } = batch;
  const done = counts.succeeded + counts.failed + counts.cancelled;
  return (
    <li className="space-y-1.5 py-2 text-xs">
      <div className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate text-slate-800" title={describe(batch)}>
          {describe(batch)}
        </span>
        <span className="shrink-0 text-slate-500">{batch.status}</span>
      </div>
      <progress
        className="h-1.5 w-full"
        max={counts.total}
        value={done}
        aria-label={`Progress of the batch on ${describe(batch)}`}
      />
      <p className="text-slate-600">
        {done} of {counts.total} done · {counts.succeeded} succeeded · {counts.failed} failed
        {counts.cancelled > 0 ? ` · ${counts.cancelled} cancelled` : ''}
      </p>
      <div className="flex gap-1.5">
        {batch.status === 'running' && (
          <button type="button" className={smallButton} disabled={cancel.isPending} onClick={() => cancel.mutate(batch.batch_id)}>
            Cancel
          </button>
        )}
        {batch.status !== 'running' && counts.failed > 0 && (
          <button type="button" className={smallButton} disabled={retry.isPending} onClick={() => retry.mutate(batch.batch_id)}>
            Retry the failed
          </button>
        )}
      </div>
      {failed.data && failed.data.documents.length > 0 && (
        <ul aria-label="Failed documents" className="space-y-0.5">
          {failed.data.documents.map((d) => (
            <li key={d.document_id} className="line-clamp-3 break-words text-red-700" title={d.error ?? ''}>
              {d.document_name}: {d.error ?? 'failed'}
            </li>
          ))}
        </ul>
      )}
      {cancel.isError && <ErrorAlert title="Could not cancel the batch" error={cancel.error} />}
      {retry.isError && <ErrorAlert title="Could not retry the failed documents" error={retry.error} />}
    </li>
  );
}
