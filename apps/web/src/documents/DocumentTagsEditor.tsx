import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { putDocumentTags } from '../api/documentBulk';
import { documentDetailQueryKey, documentsQueryKey } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { orgPath } from '../layout/orgPaths';
import { TagChip } from './TagChip';
import { TagPicker } from './TagPicker';

/**
 * A document's tags, editable in place. Tags decide which prompts run on a document, so tagging
 * an invoice is how a prompt made for one invoice reaches the next.
 */
export function DocumentTagsEditor({ orgId, document }: { orgId: string; document: DocumentSummary }) {
  const [editing, setEditing] = useState(false);
  // Shown at once, before the save and the re-read come back; a failed save puts the stored ones back.
  const [tagIds, setTagIds] = useState(document.tag_ids);
  const storedKey = document.tag_ids.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stored tags, compared by value
  useEffect(() => setTagIds(document.tag_ids), [storedKey]);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (next: string[]) => putDocumentTags(orgId, document.id, next),
    onError: () => setTagIds(document.tag_ids),
    onSettled: () =>
      Promise.all(
        [documentDetailQueryKey(orgId, document.id), documentsQueryKey(orgId)].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
  const filterBy = (tagId: string) => void navigate(`${orgPath(orgId, 'documents')}?${new URLSearchParams({ tags: tagId })}`);

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-1">
        {tagIds.length === 0 ? <span className="text-slate-500">None</span> : null}
        {tagIds.map((tagId) => (
          <TagChip key={tagId} tagId={tagId} onSelect={filterBy} />
        ))}
        <button
          type="button"
          className="ml-1 rounded px-1.5 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          aria-expanded={editing}
          onClick={() => setEditing((open) => !open)}
        >
          {editing ? 'Done' : 'Edit tags'}
        </button>
      </div>
      {editing && (
        <fieldset className="rounded-md border border-slate-200 p-3" aria-label="Tags of this document">
          <TagPicker
            orgId={orgId}
            selected={tagIds}
            disabled={save.isPending}
            onToggle={(tagId, checked) => {
              const next = checked ? [...tagIds, tagId] : tagIds.filter((id) => id !== tagId);
              setTagIds(next);
              save.mutate(next);
            }}
          />
          <p className="mt-2 text-xs text-slate-500" role="status">
            {save.isPending ? 'Saving…' : 'Prompts with one of these tags run on this document.'}
          </p>
          {save.isError && (
            <p className="mt-1 text-xs text-red-700" role="alert">
              The tags were not saved: {errorMessage(save.error)}
            </p>
          )}
        </fieldset>
      )}
    </div>
  );
}
