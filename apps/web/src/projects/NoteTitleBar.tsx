import { type FormEvent, useState } from 'react';
import { type Note, useDeleteNoteMutation, useUpdateNoteMutation } from '../api/notes';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';

interface NoteTitleBarProps {
  orgId: string;
  projectId: string;
  note: Note;
  onDeleted: () => void;
}

/** The note's name and version, renaming it in place, deleting it (after a confirmation). */
export function NoteTitleBar({ orgId, projectId, note, onDeleted }: NoteTitleBarProps) {
  const rename = useUpdateNoteMutation(orgId, projectId, note.note_id);
  const remove = useDeleteNoteMutation(orgId, projectId);
  const [name, setName] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (name === null) return;
    rename.mutate({ name: name.trim() }, { onSuccess: () => setName(null) });
  }

  function confirmDelete() {
    if (window.confirm(`Delete the note “${note.name}” and all its versions?`)) {
      remove.mutate(note.note_id, { onSuccess: onDeleted });
    }
  }

  return (
    <div className="shrink-0 space-y-1">
      {name === null ? (
        <div className="flex items-center gap-2">
          <h2 className="min-w-0 truncate text-base font-semibold text-slate-900" title={note.name}>
            {note.name}
          </h2>
          <span className="shrink-0 rounded-full bg-slate-100 px-2 ring-1 ring-slate-200 py-0.5 text-xs font-medium text-slate-700">
            version {note.version}
          </span>
          <span className="ml-auto flex shrink-0 gap-1.5">
            <Button variant="secondary" className="px-2.5 py-1" onClick={() => setName(note.name)}>
              Rename
            </Button>
            <Button variant="danger" className="px-2.5 py-1" disabled={remove.isPending} onClick={confirmDelete}>
              Delete
            </Button>
          </span>
        </div>
      ) : (
        <form onSubmit={submit} aria-label="Rename the note" className="flex items-center gap-2">
          <input
            aria-label="Note name"
            required
            maxLength={200}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to rename
            autoFocus
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus:border-slate-500 focus:outline-none"
          />
          <Button type="submit" className="px-2.5 py-1" disabled={rename.isPending || name.trim() === ''}>
            Save name
          </Button>
          <Button variant="secondary" className="px-2.5 py-1" onClick={() => setName(null)}>
            Cancel
          </Button>
        </form>
      )}
      {rename.isError && <ErrorAlert title="Could not rename the note" error={rename.error} />}
      {remove.isError && <ErrorAlert title="Could not delete the note" error={remove.error} />}
    </div>
  );
}
