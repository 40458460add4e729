import { type FormEvent, useState } from 'react';
import { type Prompt, useSavePromptMutation } from '../api/prompts';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import { ModelPicker } from './ModelPicker';
import { type SchemaChoice, SchemaPicker } from './SchemaPicker';
import { TagPicker } from './TagPicker';

interface PromptEditorProps {
  orgId: string;
  /** The current version of the prompt being edited, or null for a new prompt. */
  prompt: Prompt | null;
  onSaved: (saved: Prompt) => void;
}

/** A prompt's instructions, the schema its answers follow, its model and its tags; saving an edit adds a version. */
export function PromptEditor({ orgId, prompt, onSaved }: PromptEditorProps) {
  const [name, setName] = useState(prompt?.name ?? '');
  const [content, setContent] = useState(prompt?.content ?? '');
  const [schema, setSchema] = useState<SchemaChoice>({
    schemaId: prompt?.schema_id ?? null,
    version: prompt?.schema_version ?? null,
  });
  const [model, setModel] = useState<string | null>(prompt?.model ?? null);
  const [tagIds, setTagIds] = useState<string[]>(prompt?.tag_ids ?? []);
  const [nameError, setNameError] = useState<string | undefined>();
  const save = useSavePromptMutation(orgId, prompt?.prompt_id ?? null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Enter a name for the prompt.');
      return;
    }
    setNameError(undefined);
    save.mutate(
      { name: trimmed, content, schema_id: schema.schemaId, schema_version: schema.version, model, tag_ids: tagIds },
      { onSuccess: onSaved },
    );
  }

  return (
    <form
      aria-label={prompt ? `Edit prompt ${prompt.name}` : 'New prompt'}
      onSubmit={handleSubmit}
      noValidate
      className="space-y-5"
    >
      <TextField
        label="Prompt name"
        name="name"
        autoComplete="off"
        maxLength={200}
        className="max-w-md"
        error={nameError}
        value={name}
        onChange={(event) => setName(event.target.value)}
      />
      <TextAreaField
        label="Instructions"
        hint="What the model should do with each document, e.g. which values to look for and how to write them."
        rows={10}
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
      <SchemaPicker orgId={orgId} value={schema} onChange={setSchema} />
      <ModelPicker orgId={orgId} value={model} onChange={setModel} />
      <TagPicker orgId={orgId} value={tagIds} onChange={setTagIds} />
      {save.isError && <ErrorAlert title="Could not save the prompt" error={save.error} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save prompt'}
        </Button>
        {prompt && <p className="text-xs text-slate-500">Saving a change creates version {prompt.prompt_version + 1}.</p>}
      </div>
    </form>
  );
}
