import { ErrorAlert } from '../../components/ErrorAlert';
import { LoadingState } from '../../components/LoadingState';
import { useCurrentOrg } from '../../layout/OrgRoute';
import { AdminOnly } from '../AdminOnly';
import { SettingsSection } from '../SettingsSection';
import { AddMemberForm } from './AddMemberForm';
import { MembersTable } from './MembersTable';
import { useMembersQuery } from './membersApi';

function MembersBody() {
  const org = useCurrentOrg();
  const membersQuery = useMembersQuery(org.id);
  return (
    <>
      <AddMemberForm orgId={org.id} />
      {membersQuery.isPending && <LoadingState label="Loading the members…" />}
      {membersQuery.isError && (
        <ErrorAlert title="Could not load the members" error={membersQuery.error} onRetry={() => void membersQuery.refetch()} />
      )}
      {membersQuery.data && <MembersTable org={org} members={membersQuery.data} />}
    </>
  );
}

/** Who belongs to the organization, and as what. Admins only. */
export function MembersSection() {
  const org = useCurrentOrg();
  return (
    <AdminOnly what="its members">
      <SettingsSection
        title="Members"
        description={`The people of ${org.name}. Admins manage settings and members; users work with documents.`}
      >
        <MembersBody />
      </SettingsSection>
    </AdminOnly>
  );
}
