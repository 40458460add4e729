import { PageHeader } from '../components/PageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { ApiTokensSection } from '../settings/ApiTokensSection';
import { ModelsSection } from '../settings/ModelsSection';

export function SettingsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title="Settings" />
      <div className="space-y-8">
        <ModelsSection key={`models-${org.id}`} org={org} />
        {/* Keyed by organization so a freshly created token never stays on screen after switching. */}
        <ApiTokensSection key={org.id} org={org} />
      </div>
    </>
  );
}
