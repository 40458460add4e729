import { useCurrentOrg } from '../layout/OrgRoute';
import { AutoCreateSettingsForm } from './AutoCreateSettingsForm';
import { LlmSettingsGate, ReadOnlyNote } from './LlmSettingsGate';
import { SettingsSection } from './SettingsSection';

/** Whether uploads ask the agent for a schema and a prompt by default, and with which model. */
export function AutoCreateSection() {
  const org = useCurrentOrg();
  const isAdmin = org.role === 'admin';
  return (
    <SettingsSection
      title="Auto-create"
      description="The agent proposes a schema and a prompt for a new document and runs the extraction; people review the proposal on the document's page."
    >
      <LlmSettingsGate orgId={org.id}>
        {(settings) => (
          <>
            {!isAdmin && <ReadOnlyNote />}
            <AutoCreateSettingsForm orgId={org.id} settings={settings} readOnly={!isAdmin} />
          </>
        )}
      </LlmSettingsGate>
    </SettingsSection>
  );
}
