import { type FormEvent, useState } from 'react';
import { Button } from '../../components/Button';
import { ErrorAlert } from '../../components/ErrorAlert';
import { SelectField } from '../../components/SelectField';
import { TextField } from '../../components/TextField';
import { AddedMemberNotice } from './AddedMemberNotice';
import { type Role, useAddMemberMutation } from './membersApi';

/**
 * Adds a person by email: someone with an account joins as they are; for anyone else an account
 * is made with a one-time password, shown once here, which they replace when they first sign in.
 */
export function AddMemberForm({ orgId }: { orgId: string }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('user');
  const [emailError, setEmailError] = useState<string | undefined>();
  const add = useAddMemberMutation(orgId);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(trimmed)) {
      setEmailError('Enter the email address of the person to add, such as ana@example.com.');
      return;
    }
    setEmailError(undefined);
    const body = { email: trimmed, role, ...(name.trim() === '' ? {} : { name: name.trim() }) };
    add.mutate(body, {
      onSuccess: () => {
        setEmail('');
        setName('');
        setRole('user');
      },
    });
  }

  return (
    <div className="space-y-3">
      <form aria-label="Add a member" onSubmit={handleSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          placeholder="ana@example.com"
          className="w-64"
          error={emailError}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Name (new accounts)"
          name="name"
          autoComplete="off"
          placeholder="Optional"
          className="w-48"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <SelectField label="Role" className="w-32" value={role} onChange={(event) => setRole(event.target.value as Role)}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </SelectField>
        <Button type="submit" className="mt-6 py-2" disabled={add.isPending}>
          Add member
        </Button>
      </form>
      <p className="text-xs text-slate-500">
        Someone who already has an account joins with it. Anyone else gets a new account with a one-time password.
      </p>
      {add.isError && <ErrorAlert title="Could not add the member" error={add.error} />}
      {add.data && <AddedMemberNotice added={add.data} onDismiss={() => add.reset()} />}
    </div>
  );
}
