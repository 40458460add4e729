import { useNavigate, useParams } from 'react-router';
import { DetailHeader } from '../components/DetailHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath, promptPagePath } from '../layout/orgPaths';
import { PromptDetails } from '../prompts/PromptDetails';
import { PromptEditor } from '../prompts/PromptEditor';

function NewPrompt({ orgId }: { orgId: string }) {
  const navigate = useNavigate();
  return (
    <div className="space-y-6">
      <DetailHeader backTo={orgPath(orgId, 'prompts')} backLabel="All prompts" title="New prompt" />
      <PromptEditor
        orgId={orgId}
        prompt={null}
        onSaved={(saved) => navigate(promptPagePath(orgId, saved.prompt_id), { replace: true })}
      />
    </div>
  );
}

/** A prompt's page, or the form for a new one at prompts/new. */
export function PromptPage() {
  const org = useCurrentOrg();
  const { promptId } = useParams();
  if (!promptId) {
    return null;
  }
  // Keyed so that moving to another prompt starts from its own loading state.
  return promptId === 'new' ? (
    <NewPrompt key={org.id} orgId={org.id} />
  ) : (
    <PromptDetails key={`${org.id}/${promptId}`} orgId={org.id} promptId={promptId} />
  );
}
