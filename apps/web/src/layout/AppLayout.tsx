import { Link, NavLink, Outlet, useMatch } from 'react-router';
import { useSession } from '../auth/session';
import { ShortcutsDialog } from '../shortcuts/ShortcutsDialog';
import { useShortcutListener } from '../shortcuts/shortcuts';
import { AccountMenu } from './AccountMenu';
import { OrgSwitcher } from './OrgSwitcher';
import { type OrgPage, orgPath } from './orgPaths';

const NAV_PAGES: { page: OrgPage; label: string }[] = [
  { page: 'documents', label: 'Documents' },
  { page: 'datasets', label: 'Datasets' },
  { page: 'projects', label: 'Projects' },
  { page: 'schemas', label: 'Schemas' },
  { page: 'prompts', label: 'Prompts' },
  { page: 'tags', label: 'Tags' },
  { page: 'settings', label: 'Settings' },
];

function navLinkClass({ isActive }: { isActive: boolean }): string {
  const base = 'rounded-md px-3 py-1.5 text-sm font-medium';
  return isActive ? `${base} bg-slate-100 text-slate-900` : `${base} text-slate-600 hover:bg-slate-50 hover:text-slate-900`;
}

export function AppLayout() {
  const session = useSession();
  useShortcutListener();
  const currentOrgId = useMatch('/orgs/:orgId/*')?.params.orgId;
  const navOrg = session.organizations.find((org) => org.id === currentOrgId) ?? session.organizations[0];

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-6 py-3">
          <Link to="/" className="text-lg font-semibold tracking-tight text-slate-900">
            docagent
          </Link>
          {session.organizations.length > 0 && <OrgSwitcher organizations={session.organizations} currentOrgId={currentOrgId} />}
          {navOrg && (
            <nav aria-label="Main" className="flex items-center gap-1">
              {NAV_PAGES.map(({ page, label }) => (
                <NavLink key={page} to={orgPath(navOrg.id, page)} className={navLinkClass}>
                  {label}
                </NavLink>
              ))}
            </nav>
          )}
          <div className="ml-auto flex items-center gap-3">
            <ShortcutsDialog />
            <AccountMenu email={session.user.email} />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-6 py-8">
        <Outlet />
      </main>
    </div>
  );
}
