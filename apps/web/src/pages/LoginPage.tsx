import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { setCsrfToken } from '../api/client';
import { useLoginMutation } from '../api/queries';
import { Button } from '../components/Button';
import { CenteredPanel } from '../components/CenteredPanel';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';

export function LoginPage() {
  const [searchParams] = useSearchParams();
  const [email, setEmail] = useState(() => searchParams.get('email') ?? '');
  const [password, setPassword] = useState('');
  const login = useLoginMutation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Every way onto this page (sign out, expired session, typed URL) ends the client-side
  // session, so no data from a previous account can show up after the next sign-in.
  useEffect(() => {
    setCsrfToken(null);
    queryClient.clear();
  }, [queryClient]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    login.mutate({ email: email.trim(), password }, { onSuccess: () => navigate('/', { replace: true }) });
  }

  return (
    <CenteredPanel title="Sign in" description="Use the email and password of your docagent account.">
      <form onSubmit={handleSubmit} className="space-y-4">
        {login.isError && <ErrorAlert error={login.error} />}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="username"
          required
          autoFocus={email === ''}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          autoFocus={email !== ''}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <Button type="submit" className="w-full py-2" disabled={login.isPending}>
          Sign in
        </Button>
      </form>
    </CenteredPanel>
  );
}
