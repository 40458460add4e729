export type SettingsSectionPath =
  | 'models'
  | 'model-choices'
  | 'auto-create'
  | 'members'
  | 'tokens'
  | 'webhooks'
  | 'rules'
  | 'usage'
  | 'agent-runs'
  | 'account';

/** The sections of Settings, each at its own route under /orgs/:orgId/settings/. */
export interface SettingsSectionInfo {
  path: SettingsSectionPath;
  label: string;
  /** Hidden from the others, whom the server would refuse anyway. */
  adminOnly: boolean;
}

export interface SettingsGroup {
  label: string;
  sections: SettingsSectionInfo[];
}

export const SETTINGS_GROUPS: SettingsGroup[] = [
  {
    label: 'Organization',
    sections: [
      { path: 'models', label: 'Models', adminOnly: false },
      { path: 'model-choices', label: 'Model choices', adminOnly: false },
      { path: 'auto-create', label: 'Auto-create', adminOnly: false },
      { path: 'members', label: 'Members', adminOnly: true },
      { path: 'tokens', label: 'API tokens', adminOnly: false },
      { path: 'webhooks', label: 'Webhooks', adminOnly: true },
      { path: 'rules', label: 'Rules', adminOnly: false },
    ],
  },
  {
    label: 'Activity',
    sections: [
      { path: 'usage', label: 'Usage', adminOnly: true },
      { path: 'agent-runs', label: 'Agent runs', adminOnly: true },
    ],
  },
  { label: 'You', sections: [{ path: 'account', label: 'Your account', adminOnly: false }] },
];

/** Where a section is, e.g. a link from a notice that a setting is missing. */
export function settingsPath(orgId: string, section: SettingsSectionPath, rest = ''): string {
  return `/orgs/${encodeURIComponent(orgId)}/settings/${section}${rest}`;
}
