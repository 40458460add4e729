import type { ReactNode } from 'react';
import { useCurrentOrg } from '../layout/OrgRoute';

/**
 * A section only admins may see: others (who reach it by an old link) are told so instead of
 * being sent a request the server would refuse.
 */
export function AdminOnly({ what, children }: { what: string; children: ReactNode }) {
  const org = useCurrentOrg();
  if (org.role === 'admin') return children;
  return (
    <div role="note" className="rounded-lg border border-slate-200 bg-white px-6 py-10 text-center">
      <p className="text-base font-semibold text-slate-900">Admins only</p>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        Only the admins of {org.name} can see {what}. Ask one of them if you need it.
      </p>
    </div>
  );
}
