import type { FormEvent } from 'react';
import { type Tag, useUpdateTagMutation } from '../api/tags';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TagFields } from './TagFields';
import { useTagDraft } from './useTagDraft';

interface EditTagRowProps {
  orgId: string;
  tag: Tag;
  columns: number;
  onDone: () => void;
}

/** A table row that edits a tag in place; a form cannot sit directly in a row, so it spans the whole row. */
export function EditTagRow({ orgId, tag, columns, onDone }: EditTagRowProps) {
  const { draft, change, nameError, checked } = useTagDraft({
    name: tag.name,
    color: tag.color,
    description: tag.description,
  });
  const updateTag = useUpdateTagMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = checked();
    if (fields) updateTag.mutate({ id: tag.id, ...fields }, { onSuccess: onDone });
  }

  return (
    <tr className="bg-slate-50">
      <td colSpan={columns} className="px-4 py-3">
        <form aria-label={`Edit tag ${tag.name}`} onSubmit={handleSubmit} noValidate className="space-y-3">
          <div className="flex flex-wrap items-start gap-3">
            <TagFields draft={draft} onChange={change} nameError={nameError} />
            <div className="mt-6 flex gap-2">
              <Button type="submit" className="py-2" disabled={updateTag.isPending}>
                Save
              </Button>
              <Button variant="secondary" className="py-2" onClick={onDone}>
                Cancel
              </Button>
            </div>
          </div>
          {updateTag.isError && <ErrorAlert title="Could not save the tag" error={updateTag.error} />}
        </form>
      </td>
    </tr>
  );
}
