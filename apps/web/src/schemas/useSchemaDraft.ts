import { useState } from 'react';
import { draftOfText, draftWithFields, type SchemaDraft } from './schemaDraft';
import type { SchemaField } from './schemaFields';

/** The JSON text and the builder's fields as one state, either side editing it. */
export function useSchemaDraft(initialText: string): {
  draft: SchemaDraft;
  editText: (text: string) => void;
  editFields: (fields: SchemaField[]) => void;
} {
  const [draft, setDraft] = useState(() => draftOfText(initialText));
  return {
    draft,
    editText: (text) => setDraft((current) => draftOfText(text, current.lastFields)),
    editFields: (fields) => setDraft((current) => draftWithFields(current, fields)),
  };
}
