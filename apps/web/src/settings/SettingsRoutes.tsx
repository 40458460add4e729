import { Navigate, Route, Routes } from 'react-router';
import { useCurrentOrg } from '../layout/OrgRoute';
import { ApiTokensSection } from './ApiTokensSection';
import { AutoCreateSection } from './AutoCreateSection';
import { AccountSection } from './account/AccountSection';
import { AgentRunPage } from './agent-runs/AgentRunPage';
import { AgentRunsSection } from './agent-runs/AgentRunsSection';
import { ModelChoicesSection } from './ModelChoicesSection';
import { ModelsSection } from './ModelsSection';
import { MembersSection } from './members/MembersSection';
import { RulesSection } from './rules/RulesSection';
import { SettingsLayout } from './SettingsLayout';
import { settingsPath } from './sections';
import { UsageSection } from './usage/UsageSection';
import { WebhooksSection } from './webhooks/WebhooksSection';

/** To the first section, by its full path: a relative one would be resolved below an unknown section's path. */
function ToFirstSection() {
  const org = useCurrentOrg();
  return <Navigate to={settingsPath(org.id, 'models')} replace />;
}

/** Settings' sections under /orgs/:orgId/settings/, each at its own route; an unknown one goes to the first. */
export function SettingsRoutes() {
  return (
    <Routes>
      <Route element={<SettingsLayout />}>
        <Route index element={<ToFirstSection />} />
        <Route path="models" element={<ModelsSection />} />
        <Route path="model-choices" element={<ModelChoicesSection />} />
        <Route path="auto-create" element={<AutoCreateSection />} />
        <Route path="members" element={<MembersSection />} />
        <Route path="tokens" element={<ApiTokensSection />} />
        <Route path="webhooks" element={<WebhooksSection />} />
        <Route path="rules" element={<RulesSection />} />
        <Route path="usage" element={<UsageSection />} />
        <Route path="agent-runs" element={<AgentRunsSection />} />
        <Route path="agent-runs/:runId" element={<AgentRunPage />} />
        <Route path="account" element={<AccountSection />} />
        <Route path="*" element={<ToFirstSection />} />
      </Route>
    </Routes>
  );
}
