import { TextField } from '../components/TextField';
import { ColorField } from './ColorField';
import type { TagDraft } from './useTagDraft';

interface TagFieldsProps {
  draft: TagDraft;
  onChange: (fields: Partial<TagDraft>) => void;
  nameError: string | undefined;
  /** Prefixed to the field labels ("Tag name"), where the form's own name does not say it is a tag. */
  labelPrefix?: string;
  placeholders?: { name?: string; description?: string };
}

/** A tag's name, color and description, as the create form and the edit row both show them. */
export function TagFields({ draft, onChange, nameError, labelPrefix, placeholders }: TagFieldsProps) {
  const label = (text: string) => (labelPrefix ? `${labelPrefix} ${text.toLowerCase()}` : text);
  return (
    <>
      <TextField
        label={label('Name')}
        name="name"
        autoComplete="off"
        placeholder={placeholders?.name}
        maxLength={64}
        className="w-full max-w-xs"
        error={nameError}
        value={draft.name}
        onChange={(event) => onChange({ name: event.target.value })}
      />
      <ColorField label={label('Color')} value={draft.color} onChange={(color) => onChange({ color })} />
      <TextField
        label={label('Description')}
        name="description"
        autoComplete="off"
        placeholder={placeholders?.description}
        maxLength={500}
        className="w-full max-w-sm"
        value={draft.description}
        onChange={(event) => onChange({ description: event.target.value })}
      />
    </>
  );
}
