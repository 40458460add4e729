import { PageHeader } from '../components/PageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { ApiTokensSection } from '../settings/ApiTokensSection';

export function SettingsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title="Settings" />
      {/* Keyed by organization so a freshly created token never stays on screen after switching. */}
      <ApiTokensSection key={org.id} org={org} />
    </>
  );
}
