import { type FormEvent, useState } from 'react';
import { useCreateTagMutation } from '../api/tags';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';
import { ColorField, DEFAULT_TAG_COLOR } from './ColorField';

export function CreateTagForm({ orgId }: { orgId: string }) {
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_TAG_COLOR);
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const createTag = useCreateTagMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Enter a name for the tag.');
      return;
    }
    setNameError(undefined);
    createTag.mutate(
      { name: trimmed, color, description: description.trim() },
      {
        // The color is kept: tags made one after another often belong together.
        onSuccess: () => {
          setName('');
          setDescription('');
        },
      },
    );
  }

  return (
    <div className="space-y-4">
      <form aria-label="New tag" onSubmit={handleSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <TextField
          label="Tag name"
          name="name"
          autoComplete="off"
          placeholder="e.g. Invoices"
          maxLength={64}
          className="w-full max-w-xs"
          error={nameError}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <ColorField label="Tag color" value={color} onChange={setColor} />
        <TextField
          label="Tag description"
          name="description"
          autoComplete="off"
          placeholder="Optional"
          maxLength={500}
          className="w-full max-w-sm"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <Button type="submit" className="mt-6 py-2" disabled={createTag.isPending}>
          Create tag
        </Button>
      </form>
      {createTag.isError && <ErrorAlert title="Could not create the tag" error={createTag.error} />}
    </div>
  );
}
