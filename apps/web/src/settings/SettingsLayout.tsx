import { Outlet } from 'react-router';
import { useCurrentOrg } from '../layout/OrgRoute';
import { SettingsNav } from './SettingsNav';

/** Settings: the sections on the left, the one chosen on the right, each at its own route. */
export function SettingsLayout() {
  const org = useCurrentOrg();
  return (
    <div className="grid items-start gap-8 md:grid-cols-[11rem_minmax(0,1fr)]">
      <aside className="md:sticky md:top-6">
        <h1 className="mb-4 px-3 text-2xl font-semibold tracking-tight text-slate-900">Settings</h1>
        <SettingsNav org={org} />
      </aside>
      {/* Keyed by organization so that nothing (a new token, a one-time password) stays on screen after switching. */}
      <div key={org.id} className="min-w-0">
        <Outlet context={org} />
      </div>
    </div>
  );
}
