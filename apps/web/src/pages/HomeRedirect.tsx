import { Navigate } from 'react-router';
import { useSession } from '../auth/session';
import { EmptyState } from '../components/EmptyState';
import { orgPath } from '../layout/orgPaths';

export function HomeRedirect() {
  const firstOrg = useSession().organizations[0];
  if (!firstOrg) {
    return (
      <EmptyState
        title="No organization yet"
        description="Your account is not a member of any organization. Ask an administrator to add you to one."
      />
    );
  }
  return <Navigate to={orgPath(firstOrg.id, 'documents')} replace />;
}
