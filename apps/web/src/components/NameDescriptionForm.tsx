import { type FormEvent, useState } from 'react';
import { Button } from './Button';
import { ErrorAlert } from './ErrorAlert';
import { TextAreaField } from './TextAreaField';
import { TextField } from './TextField';

interface NameDescriptionFormProps {
  /** What is made, in lower case: "project", "dataset". */
  noun: string;
  descriptionHint: string;
  pending: boolean;
  error: Error | null;
  onSubmit: (values: { name: string; description: string }) => void;
  onCancel: () => void;
}

/** The form that makes something of a name and a description (a dataset, a project). */
export function NameDescriptionForm({ noun, descriptionHint, pending, error, onSubmit, onCancel }: NameDescriptionFormProps) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit({ name: name.trim(), description: description.trim() });
  }

  return (
    <form onSubmit={submit} aria-label={`New ${noun}`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-3 md:grid-cols-[16rem_minmax(0,1fr)]">
        <TextField
          label="Name"
          required
          maxLength={200}
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextAreaField
          label="Description"
          rows={2}
          maxLength={4000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          hint={descriptionHint}
        />
      </div>
      {error && <ErrorAlert title={`Could not create the ${noun}`} error={error} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending || name.trim() === ''}>
          {pending ? 'Creating…' : `Create ${noun}`}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
