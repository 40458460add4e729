import type { Organization } from '../../api/types';
import { useSession } from '../../auth/session';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StatusPill } from '../../components/StatusPill';
import { formatDateTime } from '../../lib/format';
import { type Member, type Role, useChangeRoleMutation, useRemoveMemberMutation } from './membersApi';

const COLUMNS = ['Member', 'Role', 'Status', 'Joined'];

function MemberStatus({ member, onlyAdmin }: { member: Member; onlyAdmin: boolean }) {
  return (
    <div className="space-y-1">
      {member.must_change_password ? (
        <StatusPill tone="review" title="They have not signed in and chosen their own password yet.">
          Not signed in yet
        </StatusPill>
      ) : (
        <StatusPill tone="success">Active</StatusPill>
      )}
      {onlyAdmin && (
        <p className="max-w-56 text-xs text-slate-500">The only admin: make another member an admin first to change this.</p>
      )}
    </div>
  );
}

/** Everyone in the organization, with their role to change and a way to remove them; the last admin stays. */
export function MembersTable({ org, members }: { org: Organization; members: Member[] }) {
  const { user } = useSession();
  const changeRole = useChangeRoleMutation(org.id, user.id);
  const remove = useRemoveMemberMutation(org.id, user.id);
  const adminCount = members.filter((member) => member.role === 'admin').length;

  function changeRoleOf(member: Member, role: Role) {
    const self = member.user_id === user.id;
    if (self && role === 'user') {
      const confirmed = window.confirm(
        `Make yourself a user of ${org.name}? You will no longer be able to manage its members or settings.`,
      );
      if (!confirmed) return;
    }
    changeRole.mutate({ userId: member.user_id, role });
  }

  function removeMember(member: Member) {
    const self = member.user_id === user.id;
    const question = self
      ? `Remove yourself from ${org.name}? You will lose access to it at once.`
      : `Remove ${member.email} from ${org.name}? They lose access to its documents at once; their account stays.`;
    if (window.confirm(question)) remove.mutate(member.user_id);
  }

  return (
    <div className="space-y-3">
      {changeRole.isError && <ErrorAlert title="Could not change the role" error={changeRole.error} />}
      {remove.isError && <ErrorAlert title="Could not remove the member" error={remove.error} />}
      <DataTable columns={COLUMNS}>
        {members.map((member) => {
          const onlyAdmin = member.role === 'admin' && adminCount === 1;
          const busy =
            (changeRole.isPending && changeRole.variables?.userId === member.user_id) ||
            (remove.isPending && remove.variables === member.user_id);
          return (
            <tr key={member.user_id}>
              <td className="px-4 py-2">
                <p className="font-medium text-slate-900">
                  {member.email}
                  {member.user_id === user.id && <span className="ml-1 font-normal text-slate-500">(you)</span>}
                </p>
                {member.name !== '' && <p className="text-xs text-slate-500">{member.name}</p>}
              </td>
              <td className="px-4 py-2">
                <select
                  aria-label={`Role of ${member.email}`}
                  value={member.role}
                  disabled={onlyAdmin || busy}
                  title={onlyAdmin ? 'The only admin cannot be made a user.' : undefined}
                  onChange={(event) => changeRoleOf(member, event.target.value as Role)}
                  className="rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-sm text-slate-900 disabled:bg-slate-50 disabled:text-slate-500"
                >
                  <option value="user">User</option>
                  <option value="admin">Admin</option>
                </select>
              </td>
              <td className="px-4 py-2">
                <MemberStatus member={member} onlyAdmin={onlyAdmin} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <time dateTime={member.joined_at}>{formatDateTime(member.joined_at)}</time>
              </td>
              <td className="px-4 py-2 text-right">
                <Button
                  variant="danger"
                  disabled={onlyAdmin || busy}
                  title={onlyAdmin ? 'The only admin cannot be removed.' : undefined}
                  aria-label={`Remove ${member.email}`}
                  onClick={() => removeMember(member)}
                >
                  Remove
                </Button>
              </td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}
