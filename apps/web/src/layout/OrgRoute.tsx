import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import type { Organization } from '../api/types';
import { useSession } from '../auth/session';
import { EmptyState } from '../components/EmptyState';

/** Renders organization pages only for organizations the user belongs to. */
export function OrgRoute() {
  const { orgId } = useParams();
  const session = useSession();
  const org = session.organizations.find((candidate) => candidate.id === orgId);

  if (!org) {
    return (
      <EmptyState
        title="Organization not found"
        description="This organization does not exist or your account is not a member of it."
      >
        <Link to="/" className="text-sm font-medium text-slate-900 underline">
          Go to your documents
        </Link>
      </EmptyState>
    );
  }
  return <Outlet context={org} />;
}

export function useCurrentOrg(): Organization {
  return useOutletContext<Organization>();
}
