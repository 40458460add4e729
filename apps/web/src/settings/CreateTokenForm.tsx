import { type FormEvent, useState } from 'react';
import { useCreateTokenMutation } from '../api/queries';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';
import { NewTokenNotice } from './NewTokenNotice';

export function CreateTokenForm({ orgId }: { orgId: string }) {
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const createToken = useCreateTokenMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError('Enter a name that says where the token will be used.');
      return;
    }
    setNameError(undefined);
    createToken.mutate(trimmed, { onSuccess: () => setName('') });
  }

  return (
    <div className="space-y-4">
      <form onSubmit={handleSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <TextField
          label="Token name"
          name="name"
          autoComplete="off"
          placeholder="e.g. Nightly import script"
          className="w-full max-w-sm"
          error={nameError}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" className="mt-6 py-2" disabled={createToken.isPending}>
          Create token
        </Button>
      </form>
      {createToken.isError && <ErrorAlert title="Could not create the token" error={createToken.error} />}
      {createToken.data && <NewTokenNotice token={createToken.data} onDismiss={() => createToken.reset()} />}
    </div>
  );
}
