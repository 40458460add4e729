import { Button } from '../../components/Button';
import { SecretNotice } from '../SecretNotice';
import type { AddedMember } from './membersApi';

const roleWords = (role: string) => (role === 'admin' ? 'an admin' : 'a user');

/** What adding a member did: joined with their account, or a new account whose one-time password is shown once. */
export function AddedMemberNotice({ added, onDismiss }: { added: AddedMember; onDismiss: () => void }) {
  const { member } = added;
  if (added.one_time_password !== null) {
    return (
      <SecretNotice
        title={`Account created for ${member.email}, as ${roleWords(member.role)}`}
        secret={added.one_time_password}
        testId="one-time-password"
        onDismiss={onDismiss}
      >
        Give them this one-time password with the sign-in address. They choose their own password when they first sign in. It will
        not be shown again.
      </SecretNotice>
    );
  }
  return (
    <div
      role="status"
      className="flex items-center justify-between gap-4 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3"
    >
      <p className="text-sm text-emerald-900">
        {member.email} joined with their existing account, as {roleWords(member.role)}.
      </p>
      <Button variant="secondary" onClick={onDismiss}>
        Done
      </Button>
    </div>
  );
}
