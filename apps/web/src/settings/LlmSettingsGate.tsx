import type { ReactNode } from 'react';
import { type LlmSettings, useLlmSettingsQuery } from '../api/llmSettings';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';

/** The organization's model settings once loaded, for the sections built on them; loading and failure said in one place. */
export function LlmSettingsGate({ orgId, children }: { orgId: string; children: (settings: LlmSettings) => ReactNode }) {
  const settingsQuery = useLlmSettingsQuery(orgId);
  if (settingsQuery.isPending) {
    return <LoadingState label="Loading the model settings…" />;
  }
  if (settingsQuery.isError) {
    return (
      <ErrorAlert
        title="Could not load the model settings"
        error={settingsQuery.error}
        onRetry={() => void settingsQuery.refetch()}
      />
    );
  }
  return children(settingsQuery.data);
}

export const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** Said where a non-admin sees settings they cannot change. */
export function ReadOnlyNote() {
  return <p className="text-sm text-slate-600">Only the organization's admins can change these settings.</p>;
}
