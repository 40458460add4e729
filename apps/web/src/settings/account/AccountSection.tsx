import { useSession } from '../../auth/session';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { SettingsSection } from '../SettingsSection';
import { ChangePasswordForm } from './ChangePasswordForm';

/** The signed-in person: who they are here, and their password. */
export function AccountSection() {
  const { user } = useSession();
  const org = useCurrentOrg();
  return (
    <SettingsSection
      title="Your account"
      description="Your sign-in details. They are the same in every organization you belong to."
    >
      <dl className="grid max-w-lg grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm">
        <dt className="text-slate-500">Email</dt>
        <dd className="text-slate-900">{user.email}</dd>
        {user.name !== '' && (
          <>
            <dt className="text-slate-500">Name</dt>
            <dd className="text-slate-900">{user.name}</dd>
          </>
        )}
        <dt className="text-slate-500">Role in {org.name}</dt>
        <dd className="text-slate-900">{org.role === 'admin' ? 'Admin' : 'User'}</dd>
      </dl>
      <ChangePasswordForm />
    </SettingsSection>
  );
}
