import { useId } from 'react';
import { type ExtractionResult, useRunExtractionMutation } from '../api/extraction';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { formatDateTime } from '../lib/format';
import { PendingReviewBadge } from '../prompts/PendingReviewBadge';
import { ResultBadges } from './ResultBadges';
import { ResultForm } from './ResultForm';
import { RunButton } from './RunButton';
import { useResultSchema } from './useResultSchema';

interface PromptResultCardProps {
  orgId: string;
  documentId: string;
  promptName: string;
  /** The revision a run uses: the prompt's current one. */
  promptRevid: string;
  promptVersion: number;
  result: ExtractionResult | undefined;
  /** An auto-create proposal's prompt that nobody accepted yet (the agent panel's banner reviews it). */
  pendingReview: boolean;
  /** A run cannot start now: the prompts are already running, or no model is configured. */
  runBlocked: boolean;
}

/** One prompt's result for the document, editable, with a button that runs the prompt again. */
export function PromptResultCard({
  orgId,
  documentId,
  promptName,
  promptRevid,
  promptVersion,
  result,
  pendingReview,
  runBlocked,
}: PromptResultCardProps) {
  const headingId = useId();
  const run = useRunExtractionMutation(orgId, documentId, promptRevid);
  const resultSchema = useResultSchema(orgId, result?.prompt_revid);

  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0">
          <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900">
            {promptName}
            {pendingReview && <PendingReviewBadge />}
            {result && <ResultBadges result={result} />}
          </h3>
          {result && (
            <p className="mt-0.5 text-xs text-slate-500">
              <span className="font-mono">{result.model}</span> · {formatDateTime(result.updated_at)}
              {result.prompt_version !== promptVersion && ` · from version ${result.prompt_version} of the prompt`}
            </p>
          )}
        </div>
        <RunButton
          label={result ? 'Re-run' : 'Run'}
          promptName={promptName}
          running={run.isPending}
          disabled={runBlocked}
          onRun={() => run.mutate()}
        />
      </div>
      <div className="space-y-3 px-4 py-3">
        {run.isError && <ErrorAlert title={`Could not run ${promptName}`} error={run.error} />}
        {result && resultSchema.status === 'loading' && <LoadingState label="Loading the result…" />}
        {result && resultSchema.status === 'settled' && (
          // Remounted when the stored values change (a save or a new run), so that the form shows them.
          <ResultForm
            key={`${result.prompt_revid}:${JSON.stringify(result.updated_llm_result)}`}
            orgId={orgId}
            result={result}
            label={`${promptName} result`}
            schema={resultSchema.schema}
          />
        )}
        {!result && <p className="text-sm text-slate-500">No result yet</p>}
      </div>
    </section>
  );
}
