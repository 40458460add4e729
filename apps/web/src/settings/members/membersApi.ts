import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, patchJson, postJson } from '../../api/client';
import { orgApiPath } from '../../api/queries';

export type Role = 'admin' | 'user';

export interface Member {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  /** True until they sign in and replace their one-time password. */
  must_change_password: boolean;
  joined_at: string;
}

export interface AddedMember {
  member: Member;
  created_user: boolean;
  /** Set when the account was created: the only time it is shown. */
  one_time_password: string | null;
}

export interface NewMember {
  email: string;
  role: Role;
  name?: string;
}

const membersQueryKey = (orgId: string) => ['orgs', orgId, 'members'] as const;
const membersPath = (orgId: string) => `${orgApiPath(orgId)}/members`;
const memberPath = (orgId: string, userId: string) => `${membersPath(orgId)}/${encodeURIComponent(userId)}`;

/** Admins only: the server answers 403 to others. */
export function useMembersQuery(orgId: string) {
  return useQuery({
    queryKey: membersQueryKey(orgId),
    queryFn: async () => (await getJson<{ members: Member[] }>(membersPath(orgId))).members,
  });
}

/**
 * Reads the members again after a change, and the session too when the change was the person's
 * own (their role, or their membership), so that the app stops offering what they no longer may do.
 */
function useChanged(orgId: string) {
  const queryClient = useQueryClient();
  return (ownChange: boolean) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: membersQueryKey(orgId) }),
      ownChange ? queryClient.invalidateQueries({ queryKey: ['session'] }) : undefined,
    ]);
}

export function useAddMemberMutation(orgId: string) {
  const changed = useChanged(orgId);
  return useMutation({
    mutationFn: (member: NewMember) => postJson<AddedMember>(membersPath(orgId), { body: member }),
    onSuccess: () => changed(false),
  });
}

export function useChangeRoleMutation(orgId: string, currentUserId: string) {
  const changed = useChanged(orgId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      patchJson<Member>(memberPath(orgId, userId), { body: { role } }),
    onSuccess: (member) => changed(member.user_id === currentUserId),
  });
}

export function useRemoveMemberMutation(orgId: string, currentUserId: string) {
  const changed = useChanged(orgId);
  return useMutation({
    mutationFn: (userId: string) => deleteNoContent(memberPath(orgId, userId)),
    onSuccess: (_, userId) => changed(userId === currentUserId),
  });
}
