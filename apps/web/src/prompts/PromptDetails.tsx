import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useDefaultPromptId, useDeletePromptMutation, usePromptVersionsQuery } from '../api/prompts';
import { Button } from '../components/Button';
import { DetailHeader } from '../components/DetailHeader';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NotFoundState } from '../components/NotFoundState';
import { VersionList } from '../components/VersionList';
import { orgPath, promptPagePath } from '../layout/orgPaths';
import { useShownVersion } from '../lib/useShownVersion';
import { BatchPanel } from './BatchPanel';
import { ExportMenu } from './ExportMenu';
import { EvaluationPanel } from './evaluation/EvaluationPanel';
import { PromptEditor } from './PromptEditor';
import { PromptTabs } from './PromptTabs';
import { PromptVersionView } from './PromptVersionView';

/** An existing prompt: its current version in the editor, or an older one read-only, beside the list of versions. */
export function PromptDetails({ orgId, promptId }: { orgId: string; promptId: string }) {
  const navigate = useNavigate();
  const versionsQuery = usePromptVersionsQuery(orgId, promptId);
  const deletePrompt = useDeletePromptMutation(orgId);
  const defaultPromptId = useDefaultPromptId(orgId);
  const requestedVersion = useShownVersion();
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const listPath = orgPath(orgId, 'prompts');
  const pagePath = promptPagePath(orgId, promptId);

  if (versionsQuery.isPending) {
    return <LoadingState label="Loading the prompt…" />;
  }
  if (versionsQuery.error instanceof ApiError && versionsQuery.error.status === 404) {
    return <NotFoundState what="Prompt" backTo={listPath} backLabel="Go to the prompts" />;
  }
  const [current] = versionsQuery.data ?? [];
  if (!current) {
    return (
      <ErrorAlert title="Could not load the prompt" error={versionsQuery.error} onRetry={() => void versionsQuery.refetch()} />
    );
  }
  const versions = versionsQuery.data ?? [];
  const older = versions.find((version) => version.prompt_version === requestedVersion && version !== current);

  function confirmDelete() {
    if (window.confirm(`Delete the prompt “${current?.name}” and all its versions?`)) {
      deletePrompt.mutate(promptId, { onSuccess: () => navigate(listPath) });
    }
  }

  return (
    <div className="space-y-6">
      <DetailHeader backTo={listPath} backLabel="All prompts" title={current.name} version={current.prompt_version}>
        <ExportMenu orgId={orgId} promptId={promptId} />
        {promptId === defaultPromptId ? (
          <span className="text-sm text-slate-500">
            The default prompt runs on every document; edit it, it cannot be deleted.
          </span>
        ) : (
          <Button variant="danger" disabled={deletePrompt.isPending} onClick={confirmDelete}>
            Delete prompt
          </Button>
        )}
      </DetailHeader>
      {deletePrompt.isError && <ErrorAlert title="Could not delete the prompt" error={deletePrompt.error} />}
      {versionsQuery.isError && (
        <ErrorAlert
          title="Could not refresh the prompt"
          error={versionsQuery.error}
          onRetry={() => void versionsQuery.refetch()}
        />
      )}
      <PromptTabs
        prompt={
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
            {older ? (
              <PromptVersionView orgId={orgId} prompt={older} currentPath={pagePath} />
            ) : (
              // Keyed by revision so that a saved version starts the editor again from what was saved.
              <div className="space-y-4">
                {savedVersion === current.prompt_version && (
                  <p role="status" className="rounded-md bg-emerald-50 px-4 py-2 text-sm text-emerald-800">
                    Saved as version {savedVersion}.
                  </p>
                )}
                <PromptEditor
                  key={current.prompt_revid}
                  orgId={orgId}
                  prompt={current}
                  onSaved={(saved) => setSavedVersion(saved.prompt_version)}
                />
              </div>
            )}
            <div className="space-y-4">
              <VersionList
                versions={versions.map((version) => ({ ...version, version: version.prompt_version }))}
                shownVersion={older?.prompt_version ?? current.prompt_version}
                pagePath={pagePath}
              />
              <BatchPanel orgId={orgId} promptId={promptId} />
            </div>
          </div>
        }
        evaluation={<EvaluationPanel orgId={orgId} promptId={promptId} versions={versions} />}
      />
    </div>
  );
}
