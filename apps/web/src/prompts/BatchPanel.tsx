import { type FormEvent, useState } from 'react';
import { useBatchesQuery, useStartBatchMutation } from '../api/batches';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { BatchRow } from './BatchRow';
import { TagPicker } from './TagPicker';

/** Runs the prompt's latest version over documents chosen by tags or by name, and shows its batches. */
export function BatchPanel({ orgId, promptId }: { orgId: string; promptId: string }) {
  const batches = useBatchesQuery(orgId, promptId);
  const start = useStartBatchMutation(orgId);
  const [by, setBy] = useState<'tags' | 'name'>('tags');
  const [tagIds, setTagIds] = useState<string[]>([]);
  const [name, setName] = useState('');
  const ready = by === 'tags' ? tagIds.length > 0 : name.trim() !== '';

  function submit(event: FormEvent) {
    event.preventDefault();
    start.mutate(by === 'tags' ? { promptId, tag_ids: tagIds } : { promptId, name_search: name.trim() });
  }

  return (
    <section aria-label="Run on documents" className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
      <h2 className="text-sm font-semibold text-slate-900">Run on documents</h2>
      <form onSubmit={submit} className="space-y-2 text-sm">
        <div className="flex gap-3 text-xs" role="radiogroup" aria-label="Choose documents by">
          <label className="flex items-center gap-1">
            <input type="radio" checked={by === 'tags'} onChange={() => setBy('tags')} /> by tags
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" checked={by === 'name'} onChange={() => setBy('name')} /> by name
          </label>
        </div>
        {by === 'tags' ? (
          <TagPicker orgId={orgId} value={tagIds} onChange={setTagIds} />
        ) : (
          <input
            type="search"
            aria-label="Document name contains"
            placeholder="Name contains…"
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="block w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900"
          />
        )}
        <Button type="submit" disabled={!ready || start.isPending}>
          {start.isPending ? 'Starting…' : 'Run the latest version'}
        </Button>
      </form>
      {start.isError && <ErrorAlert title="Could not start the batch" error={start.error} />}
      {batches.isError && <ErrorAlert title="Could not load the batches" error={batches.error} />}
      {batches.data && batches.data.batches.length > 0 && (
        <ul aria-label="Batches" className="divide-y divide-slate-100">
          {batches.data.batches.slice(0, 5).map((batch) => (
            <BatchRow key={batch.batch_id} orgId={orgId} batch={batch} />
          ))}
        </ul>
      )}
    </section>
  );
}
