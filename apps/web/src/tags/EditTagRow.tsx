import { type FormEvent, useState } from 'react';
import { type Tag, useUpdateTagMutation } from '../api/tags';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';
import { ColorField } from './ColorField';

interface EditTagRowProps {
  orgId: string;
  tag: Tag;
  columns: number;
  onDone: () => void;
}

/** A table row that edits a tag in place; a form cannot sit directly in a row, so it spans the whole row. */
export function EditTagRow({ orgId, tag, columns, onDone }: EditTagRowProps) {
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color);
  const [description, setDescription] = useState(tag.description);
  const [nameError, setNameError] = useState<string | undefined>();
  const updateTag = useUpdateTagMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Enter a name for the tag.');
      return;
    }
    setNameError(undefined);
    updateTag.mutate({ id: tag.id, name: trimmed, color, description: description.trim() }, { onSuccess: onDone });
  }

  return (
    <tr className="bg-slate-50">
      <td colSpan={columns} className="px-4 py-3">
        <form aria-label={`Edit tag ${tag.name}`} onSubmit={handleSubmit} noValidate className="space-y-3">
          <div className="flex flex-wrap items-start gap-3">
            <TextField
              label="Name"
              name="name"
              autoComplete="off"
              maxLength={64}
              className="w-full max-w-xs"
              error={nameError}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <ColorField label="Color" value={color} onChange={setColor} />
            <TextField
              label="Description"
              name="description"
              autoComplete="off"
              maxLength={500}
              className="w-full max-w-sm"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
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
