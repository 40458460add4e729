import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Organization } from '../api/types';
import { orgPath } from './orgPaths';

interface OrgSwitcherProps {
  organizations: Organization[];
  /** The organization in the URL, or undefined outside organization pages. */
  currentOrgId: string | undefined;
}

export function OrgSwitcher({ organizations, currentOrgId }: OrgSwitcherProps) {
  const id = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const isMember = organizations.some((org) => org.id === currentOrgId);

  function switchTo(orgId: string) {
    const target =
      currentOrgId === undefined
        ? orgPath(orgId, 'documents')
        : location.pathname.replace(/^\/orgs\/[^/]+/, `/orgs/${encodeURIComponent(orgId)}`);
    navigate(target);
  }

  return (
    <div>
      <label htmlFor={id} className="sr-only">
        Organization
      </label>
      <select
        id={id}
        value={isMember ? currentOrgId : ''}
        onChange={(event) => switchTo(event.target.value)}
        className="max-w-48 rounded-md border border-slate-300 bg-white py-1.5 pr-8 pl-2 text-sm text-slate-800 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
      >
        {!isMember && (
          <option value="" disabled>
            Choose an organization
          </option>
        )}
        {organizations.map((org) => (
          <option key={org.id} value={org.id}>
            {org.name}
          </option>
        ))}
      </select>
    </div>
  );
}
