import { type FormEvent, useState } from 'react';
import { useChangePasswordMutation } from '../api/queries';
import { SignOutButton } from '../auth/SignOutButton';
import { useSession } from '../auth/session';
import { Button } from '../components/Button';
import { CenteredPanel } from '../components/CenteredPanel';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';

const minPasswordLength = 12;

export function ChangePasswordPage() {
  const session = useSession();
  const changePassword = useChangePasswordMutation();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [currentPasswordError, setCurrentPasswordError] = useState<string | undefined>();
  const [newPasswordError, setNewPasswordError] = useState<string | undefined>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const currentError = currentPassword === '' ? 'Enter your current password.' : undefined;
    const newError =
      newPassword.length < minPasswordLength
        ? `The new password must be at least ${minPasswordLength} characters long.`
        : undefined;
    setCurrentPasswordError(currentError);
    setNewPasswordError(newError);
    if (currentError === undefined && newError === undefined) {
      changePassword.mutate({ current_password: currentPassword, new_password: newPassword });
    }
  }

  return (
    <CenteredPanel
      title="Choose a new password"
      description={`The account ${session.user.email} needs a new password before you can continue.`}
    >
      <form onSubmit={handleSubmit} noValidate className="space-y-4">
        {changePassword.isError && <ErrorAlert error={changePassword.error} />}
        <TextField
          label="Current password"
          type="password"
          name="current_password"
          autoComplete="current-password"
          required
          autoFocus
          error={currentPasswordError}
          value={currentPassword}
          onChange={(event) => setCurrentPassword(event.target.value)}
        />
        <TextField
          label="New password"
          type="password"
          name="new_password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          hint={`At least ${minPasswordLength} characters.`}
          error={newPasswordError}
          value={newPassword}
          onChange={(event) => setNewPassword(event.target.value)}
        />
        <Button type="submit" className="w-full py-2" disabled={changePassword.isPending}>
          Save password
        </Button>
      </form>
      <div className="mt-6 flex items-center justify-between border-t border-slate-200 pt-4 text-sm text-slate-600">
        <span>Not you?</span>
        <SignOutButton />
      </div>
    </CenteredPanel>
  );
}
