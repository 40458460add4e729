import { useState } from 'react';
import { ApiError } from '../api/client';
import { type Note, useUpdateNoteMutation } from '../api/notes';
import { ChatMarkdown } from '../chat/Markdown';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { SegmentedControl } from '../components/SegmentedControl';
import { ConflictNotice } from './ConflictNotice';
import { MarkdownEditor } from './MarkdownEditor';
import { useNoteDraft } from './useNoteDraft';

type Mode = 'edit' | 'preview';

const modes = [
  { id: 'edit', label: 'Edit' },
  { id: 'preview', label: 'Preview' },
] as const;

interface NoteEditorProps {
  orgId: string;
  projectId: string;
  note: Note;
  /** Reads the note again (after a refused save, to learn its version). */
  onRefetch: () => Promise<{ data?: Note }>;
}

/** The note's Markdown in CodeMirror or rendered; saved as a new version on the one it was started from. */
export function NoteEditor({ orgId, projectId, note, onRefetch }: NoteEditorProps) {
  const [mode, setMode] = useState<Mode>('edit');
  const draft = useNoteDraft(note);
  const update = useUpdateNoteMutation(orgId, projectId, note.note_id);
  const conflict = update.error instanceof ApiError && update.error.status === 409;

  function save(baseVersion: number) {
    if (update.isPending) return;
    update.mutate(
      { content: draft.draft, base_version: baseVersion },
      {
        onSuccess: draft.saved,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) void onRefetch();
        },
      },
    );
  }

  async function reload() {
    update.reset();
    const current = await onRefetch();
    draft.adopt(current.data ?? note);
  }

  return (
    <section aria-label="Note editor" className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        <SegmentedControl legend="Show the note as" options={modes} value={mode} onChange={setMode} />
        <span role="status" className="text-xs text-slate-500">
          {update.isPending ? 'Saving…' : draft.dirty ? 'Unsaved changes' : `Version ${draft.base.version}`}
        </span>
        <Button
          className="ml-auto px-2.5 py-1"
          title="Save (Ctrl+S)"
          disabled={!draft.dirty || update.isPending || draft.outdated || conflict}
          onClick={() => save(draft.base.version)}
        >
          Save
        </Button>
      </div>
      {((draft.outdated && draft.dirty) || conflict) && (
        <ConflictNotice
          baseVersion={draft.base.version}
          currentVersion={note.version}
          busy={update.isPending}
          onReload={() => void reload()}
          onOverwrite={() => save(note.version)}
        />
      )}
      {update.isError && !conflict && <ErrorAlert title="Could not save the note" error={update.error} />}
      <div
        hidden={mode !== 'edit'}
        className="min-h-0 flex-1 overflow-hidden rounded-md border border-slate-300 focus-within:border-slate-500"
      >
        <MarkdownEditor value={draft.draft} onChange={draft.setDraft} label="Note text" onSave={() => save(draft.base.version)} />
      </div>
      {mode === 'preview' && (
        <section
          aria-label="Preview"
          className="min-h-0 flex-1 overflow-y-auto rounded-md border border-slate-200 px-3 py-2 text-sm text-slate-800"
        >
          {draft.draft.trim() === '' ? (
            <p className="text-slate-500">Nothing written yet.</p>
          ) : (
            <ChatMarkdown text={draft.draft} orgId={orgId} />
          )}
        </section>
      )}
    </section>
  );
}
