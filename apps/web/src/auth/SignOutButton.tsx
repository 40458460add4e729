import { useNavigate } from 'react-router';
import { errorMessage } from '../api/client';
import { useLogoutMutation } from '../api/queries';
import { Button } from '../components/Button';

export function SignOutButton() {
  const logout = useLogoutMutation();
  const navigate = useNavigate();

  return (
    <div className="flex items-center gap-2">
      {logout.isError && (
        <p role="alert" className="text-xs text-red-700">
          Sign out failed: {errorMessage(logout.error)}
        </p>
      )}
      <Button
        variant="secondary"
        disabled={logout.isPending}
        onClick={() => logout.mutate(undefined, { onSuccess: () => navigate('/login', { replace: true }) })}
      >
        Sign out
      </Button>
    </div>
  );
}
