import { useCurrentOrg } from '../layout/OrgRoute';
import { LlmSettingsGate, ReadOnlyNote } from './LlmSettingsGate';
import { ModelChoicesForm } from './ModelChoicesForm';
import { SettingsSection } from './SettingsSection';

/** Which models the organization uses by default, may use, offers in chat, and what it may spend a month. */
export function ModelChoicesSection() {
  const org = useCurrentOrg();
  const isAdmin = org.role === 'admin';
  return (
    <SettingsSection
      title="Model choices"
      description="The default model, the models prompts and the chat may use, and the monthly spending limit."
    >
      <LlmSettingsGate orgId={org.id}>
        {(settings) => (
          <>
            {!isAdmin && <ReadOnlyNote />}
            <ModelChoicesForm
              // Remounted when the available models change, so that the checklists list them.
              key={settings.available_models.join(',')}
              orgId={org.id}
              settings={settings}
              readOnly={!isAdmin}
            />
          </>
        )}
      </LlmSettingsGate>
    </SettingsSection>
  );
}
