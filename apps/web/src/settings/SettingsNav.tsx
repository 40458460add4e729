import { NavLink } from 'react-router';
import type { Organization } from '../api/types';
import { SETTINGS_GROUPS, settingsPath } from './sections';

function linkClass({ isActive }: { isActive: boolean }): string {
  const base = 'block rounded-md px-3 py-1.5 text-sm';
  return isActive
    ? `${base} bg-slate-200/70 font-medium text-slate-900`
    : `${base} text-slate-600 hover:bg-slate-100 hover:text-slate-900`;
}

/** The sections of Settings this person may open, grouped; the one shown is marked. */
export function SettingsNav({ org }: { org: Organization }) {
  const isAdmin = org.role === 'admin';
  return (
    <nav aria-label="Settings sections" className="space-y-4">
      {SETTINGS_GROUPS.map((group) => {
        const sections = group.sections.filter((section) => isAdmin || !section.adminOnly);
        if (sections.length === 0) return null;
        return (
          <div key={group.label}>
            <p className="px-3 pb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">{group.label}</p>
            <ul className="space-y-0.5">
              {sections.map((section) => (
                <li key={section.path}>
                  <NavLink to={settingsPath(org.id, section.path)} className={linkClass}>
                    {section.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
