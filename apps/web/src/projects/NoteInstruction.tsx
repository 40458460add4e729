import { useState } from 'react';
import { type Note, useUpdateNoteMutation } from '../api/notes';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';

/** How the note is to be kept ("a shopping list grouped by aisle"): the agent honours it on every rewrite. */
export function NoteInstruction({ orgId, projectId, note }: { orgId: string; projectId: string; note: Note }) {
  const update = useUpdateNoteMutation(orgId, projectId, note.note_id);
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? note.standing_instruction;
  const changed = draft !== null && draft !== note.standing_instruction;

  return (
    <details className="shrink-0 rounded-md border border-slate-200 bg-white text-sm">
      <summary className="cursor-pointer truncate px-3 py-1.5 text-xs text-slate-600">
        <span className="font-medium text-slate-800">Standing instruction: </span>
        {note.standing_instruction === '' ? 'none' : note.standing_instruction}
      </summary>
      <div className="space-y-2 border-t border-slate-200 p-2">
        <textarea
          aria-label="Standing instruction"
          rows={2}
          maxLength={4000}
          value={value}
          placeholder="How this note is to be kept, e.g. a shopping list grouped by aisle"
          onChange={(event) => setDraft(event.target.value)}
          className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-slate-500 focus:outline-none"
        />
        {update.isError && <ErrorAlert title="Could not save the instruction" error={update.error} />}
        <Button
          className="px-2.5 py-1"
          disabled={!changed || update.isPending}
          onClick={() => update.mutate({ standing_instruction: value }, { onSuccess: () => setDraft(null) })}
        >
          {update.isPending ? 'Saving…' : 'Save instruction'}
        </Button>
      </div>
    </details>
  );
}
