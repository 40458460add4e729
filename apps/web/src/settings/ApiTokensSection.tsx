import { useCurrentOrg } from '../layout/OrgRoute';
import { CreateTokenForm } from './CreateTokenForm';
import { SettingsSection } from './SettingsSection';
import { TokensTable } from './TokensTable';

export function ApiTokensSection() {
  const org = useCurrentOrg();
  return (
    <SettingsSection
      title="API tokens"
      description={`Tokens let scripts and integrations call the docagent API on behalf of ${org.name}.`}
    >
      <CreateTokenForm orgId={org.id} />
      <TokensTable orgId={org.id} />
    </SettingsSection>
  );
}
