import { useState } from 'react';
import { ApiError } from '../api/client';
import { useNoteQuery } from '../api/notes';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { SegmentedControl } from '../components/SegmentedControl';
import { NoteEditor } from './NoteEditor';
import { NoteHistory } from './NoteHistory';
import { NoteInstruction } from './NoteInstruction';
import { NoteTitleBar } from './NoteTitleBar';

type Tab = 'text' | 'history';

const tabs = [
  { id: 'text', label: 'Text' },
  { id: 'history', label: 'History' },
] as const;

interface NotePanelProps {
  orgId: string;
  projectId: string;
  noteId: string;
  onDeleted: () => void;
}

/** One note: its name, standing instruction, text (edited or previewed) and history. */
export function NotePanel({ orgId, projectId, noteId, onDeleted }: NotePanelProps) {
  const noteQuery = useNoteQuery(orgId, projectId, noteId);
  const [tab, setTab] = useState<Tab>('text');
  const note = noteQuery.data;
  if (!note) {
    if (noteQuery.isPending) return <LoadingState label="Loading the note…" />;
    const gone = noteQuery.error instanceof ApiError && noteQuery.error.status === 404;
    return gone ? (
      <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
        <p>This note is no longer there: it was deleted.</p>
        <Button variant="secondary" onClick={onDeleted}>
          Show the other notes
        </Button>
      </div>
    ) : (
      <ErrorAlert title="Could not load the note" error={noteQuery.error} onRetry={() => void noteQuery.refetch()} />
    );
  }
  return (
    <div className="flex h-full min-h-0 flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3">
      <NoteTitleBar orgId={orgId} projectId={projectId} note={note} onDeleted={onDeleted} />
      <NoteInstruction orgId={orgId} projectId={projectId} note={note} />
      <div className="flex shrink-0">
        <SegmentedControl legend="Note view" options={tabs} value={tab} onChange={setTab} />
      </div>
      {/* The editor stays mounted under the history, so that unsaved text waits for the person's return. */}
      <div hidden={tab !== 'text'} className="flex min-h-0 flex-1 flex-col">
        <NoteEditor orgId={orgId} projectId={projectId} note={note} onRefetch={() => noteQuery.refetch()} />
      </div>
      {tab === 'history' && <NoteHistory orgId={orgId} projectId={projectId} noteId={noteId} />}
    </div>
  );
}
