import { useState } from 'react';
import type { Note } from '../api/notes';

/**
 * The person's text of a note and the version it was started from. An untouched draft follows the
 * note when it moves on (the agent rewrote it, another tab saved); a changed one is never replaced
 * behind the person's back: `outdated` says the note moved on under it.
 */
export function useNoteDraft(note: Note) {
  const [base, setBase] = useState({ version: note.version, content: note.content });
  const [draft, setDraft] = useState(note.content);
  const dirty = draft !== base.content;
  if (note.version !== base.version && !dirty) {
    setBase({ version: note.version, content: note.content });
    setDraft(note.content);
  }
  return {
    draft,
    setDraft,
    base,
    dirty,
    outdated: note.version !== base.version,
    /** The note as saved now becomes what the draft is compared with. */
    saved: (saved: Note) => setBase({ version: saved.version, content: saved.content }),
    /** Drops the person's changes for the note as it is. */
    adopt: (current: Note) => {
      setBase({ version: current.version, content: current.content });
      setDraft(current.content);
    },
  };
}
