import { useState } from 'react';

export interface TagDraft {
  name: string;
  color: string;
  description: string;
}

/** A tag being written: its fields, and the check that runs before it is sent. */
export function useTagDraft(initial: TagDraft) {
  const [draft, setDraft] = useState(initial);
  const [nameError, setNameError] = useState<string | undefined>();

  /** The draft as sent (trimmed), or undefined after saying why it cannot be. */
  function checked(): TagDraft | undefined {
    const name = draft.name.trim();
    if (name === '') {
      setNameError('Enter a name for the tag.');
      return undefined;
    }
    setNameError(undefined);
    return { name, color: draft.color, description: draft.description.trim() };
  }

  const change = (fields: Partial<TagDraft>) => setDraft((current) => ({ ...current, ...fields }));
  return { draft, change, nameError, checked };
}
