import { useRevokeTokenMutation, useTokensQuery } from '../api/queries';
import type { ApiToken } from '../api/types';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { formatDateTime } from '../lib/format';

const COLUMNS = ['Name', 'Created', 'Last used', 'Status'];

function DateCell({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

function StatusBadge({ token }: { token: ApiToken }) {
  if (token.revoked_at !== null) {
    return (
      <span
        title={`Revoked ${formatDateTime(token.revoked_at)}`}
        className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600"
      >
        Revoked
      </span>
    );
  }
  return <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">Active</span>;
}

export function TokensTable({ orgId }: { orgId: string }) {
  const tokensQuery = useTokensQuery(orgId);
  const revokeToken = useRevokeTokenMutation(orgId);

  function revoke(token: ApiToken) {
    const confirmed = window.confirm(`Revoke the token “${token.name}”? Anything still using it will stop working immediately.`);
    if (confirmed) {
      revokeToken.mutate(token.id);
    }
  }

  if (tokensQuery.isPending) {
    return <LoadingState label="Loading API tokens…" />;
  }

  return (
    <div className="space-y-4">
      {tokensQuery.isError && (
        <ErrorAlert title="Could not load API tokens" error={tokensQuery.error} onRetry={() => void tokensQuery.refetch()} />
      )}
      {revokeToken.isError && <ErrorAlert title="Could not revoke the token" error={revokeToken.error} />}
      {tokensQuery.data && (
        <DataTable columns={COLUMNS}>
          {tokensQuery.data.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="px-4 py-6 text-center text-slate-500">
                No API tokens yet. Create one above to use the API.
              </td>
            </tr>
          )}
          {tokensQuery.data.map((token) => (
            <tr key={token.id}>
              <td className="px-4 py-2">
                <div className="font-medium break-words text-slate-900">{token.name}</div>
                <div className="font-mono text-xs text-slate-500">{token.prefix}…</div>
              </td>
              <td className="px-4 py-2">
                <div className="whitespace-nowrap">
                  <DateCell iso={token.created_at} />
                </div>
                {token.created_by && <div className="text-xs break-all text-slate-500">by {token.created_by.email}</div>}
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                {token.last_used_at === null ? 'Never' : <DateCell iso={token.last_used_at} />}
              </td>
              <td className="px-4 py-2">
                <StatusBadge token={token} />
              </td>
              <td className="px-4 py-2 text-right whitespace-nowrap">
                {token.revoked_at === null && (
                  <Button
                    variant="danger"
                    disabled={revokeToken.isPending && revokeToken.variables === token.id}
                    onClick={() => revoke(token)}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
