import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, postNoContent, setCsrfToken } from './client';
import type { ApiToken, CreatedApiToken, Session } from './types';

const sessionQueryKey = ['session'] as const;

function tokensQueryKey(orgId: string) {
  return ['orgs', orgId, 'tokens'] as const;
}

export function orgApiPath(orgId: string): string {
  return `/v0/orgs/${encodeURIComponent(orgId)}`;
}

function rememberCsrfToken(session: Session): Session {
  setCsrfToken(session.csrf_token);
  return session;
}

export function useSessionQuery() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: async () => rememberCsrfToken(await getJson<Session>('/v0/account/me')),
  });
}

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) =>
      rememberCsrfToken(
        await postJson<Session>('/v0/auth/login', {
          body: credentials,
          redirectOnUnauthorized: false,
        }),
      ),
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}

export function useLogoutMutation() {
  return useMutation({
    mutationFn: () => postNoContent('/v0/auth/logout'),
  });
}

export function useChangePasswordMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { current_password: string; new_password: string }) => postNoContent('/v0/account/password', { body }),
    // Returning the refetch keeps the mutation pending until /me no longer asks for a change.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
  });
}

export function useTokensQuery(orgId: string) {
  return useQuery({
    queryKey: tokensQueryKey(orgId),
    queryFn: async () => (await getJson<{ tokens: ApiToken[] }>(`${orgApiPath(orgId)}/tokens`)).tokens,
  });
}

export function useCreateTokenMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => postJson<CreatedApiToken>(`${orgApiPath(orgId)}/tokens`, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey(orgId) }),
  });
}

export function useRevokeTokenMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => deleteNoContent(`${orgApiPath(orgId)}/tokens/${encodeURIComponent(tokenId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensQueryKey(orgId) }),
  });
}
