import type { UseQueryResult } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type NoteSummary, useCreateNoteMutation } from '../api/notes';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';
import { formatDateTime } from '../lib/format';

function NewNoteForm({ orgId, projectId, onCreated }: { orgId: string; projectId: string; onCreated: (id: string) => void }) {
  const create = useCreateNoteMutation(orgId, projectId);
  const [name, setName] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), content: '' },
      {
        onSuccess: (note) => {
          setName('');
          onCreated(note.note_id);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} aria-label="New note" className="space-y-2 border-b border-slate-200 p-2">
      <TextField label="Note name" required maxLength={200} autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      {create.isError && <ErrorAlert title="Could not create the note" error={create.error} />}
      <Button type="submit" className="w-full" disabled={create.isPending || name.trim() === ''}>
        {create.isPending ? 'Creating…' : 'Create note'}
      </Button>
    </form>
  );
}

interface NotesListProps {
  orgId: string;
  projectId: string;
  query: UseQueryResult<NoteSummary[]>;
  selected: string | null;
  onSelect: (noteId: string) => void;
}

/** The project's notes by name; the one open is marked, and a new one is a name away. */
export function NotesList({ orgId, projectId, query, selected, onSelect }: NotesListProps) {
  const [creating, setCreating] = useState(false);
  const notes = query.data ?? [];
  return (
    <nav aria-label="Notes" className="shrink-0 rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-900">Notes</h2>
        <Button
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          aria-expanded={creating}
          onClick={() => setCreating(!creating)}
        >
          {creating ? 'Cancel' : 'New note'}
        </Button>
      </div>
      {creating && (
        <NewNoteForm
          orgId={orgId}
          projectId={projectId}
          onCreated={(id) => {
            setCreating(false);
            onSelect(id);
          }}
        />
      )}
      {query.isError && <ErrorAlert title="Could not load the notes" error={query.error} onRetry={() => void query.refetch()} />}
      {query.isSuccess && notes.length === 0 && <p className="px-3 py-2 text-xs text-slate-500">No notes yet.</p>}
      <ul className="divide-y divide-slate-100">
        {notes.map((note) => (
          <li key={note.note_id}>
            <button
              type="button"
              aria-current={note.note_id === selected ? 'true' : undefined}
              onClick={() => onSelect(note.note_id)}
              className="block w-full px-3 py-1.5 text-left hover:bg-slate-50 aria-[current=true]:bg-sky-50"
            >
              <span className="block truncate text-sm font-medium text-slate-900">{note.name}</span>
              <span className="block truncate text-xs text-slate-500">
                v{note.version} · <time dateTime={note.updated_at}>{formatDateTime(note.updated_at)}</time>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
