import { type FormEvent, useState } from 'react';
import { useChangePasswordMutation } from '../../api/queries';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TextField } from '../../components/TextField';

const MIN_PASSWORD_LENGTH = 12;

/** A person changes their own password; the current one proves it is them. */
export function ChangePasswordForm() {
  const change = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [nextError, setNextError] = useState<string | undefined>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (next.length < MIN_PASSWORD_LENGTH) {
      setNextError(`The new password must be at least ${MIN_PASSWORD_LENGTH} characters long.`);
      return;
    }
    setNextError(undefined);
    change.mutate(
      { current_password: current, new_password: next },
      {
        onSuccess: () => {
          setCurrent('');
          setNext('');
        },
      },
    );
  }

  return (
    <form aria-label="Change password" onSubmit={handleSubmit} noValidate className="max-w-sm space-y-3">
      <h3 className="text-sm font-semibold text-slate-900">Change password</h3>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(event) => setCurrent(event.target.value)}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        error={nextError}
        value={next}
        onChange={(event) => setNext(event.target.value)}
      />
      {change.isError && <ErrorAlert title="Could not change the password" error={change.error} />}
      {change.isSuccess && <p className="text-sm text-emerald-700">Password changed.</p>}
      <Button type="submit" disabled={change.isPending || current === ''}>
        Change password
      </Button>
    </form>
  );
}
