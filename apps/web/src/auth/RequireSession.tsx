import { Navigate, Outlet } from 'react-router';
import { ApiError } from '../api/client';
import { useSessionQuery } from '../api/queries';
import { CenteredPanel } from '../components/CenteredPanel';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { ChangePasswordPage } from '../pages/ChangePasswordPage';
import { SessionProvider } from './session';

/**
 * Renders its child routes only for a signed-in user, after a forced password change
 * if the account requires one.
 */
export function RequireSession() {
  const sessionQuery = useSessionQuery();

  // Checked before the error state so that a failed background refetch keeps the app usable.
  if (sessionQuery.data) {
    const session = sessionQuery.data;
    return (
      <SessionProvider session={session}>
        {session.user.must_change_password ? <ChangePasswordPage /> : <Outlet />}
      </SessionProvider>
    );
  }

  if (sessionQuery.isPending) {
    return (
      <main className="flex min-h-screen items-center justify-center">
        <LoadingState label="Loading your account…" />
      </main>
    );
  }

  if (sessionQuery.error instanceof ApiError && sessionQuery.error.status === 401) {
    return <Navigate to="/login" replace />;
  }

  return (
    <CenteredPanel title="Could not load your account">
      <ErrorAlert error={sessionQuery.error} onRetry={() => void sessionQuery.refetch()} />
    </CenteredPanel>
  );
}
