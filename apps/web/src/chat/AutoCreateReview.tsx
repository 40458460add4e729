import type { ReactNode } from 'react';
import { useAutoCreateDecisionMutation, useRefineAutoCreateMutation } from '../api/autoCreate';
import { isAutoCreatePending } from '../api/documents';
import { useExtractionResultsQuery } from '../api/extraction';
import { usePromptRevisionQuery, useSchemaRevisionQuery } from '../api/revisions';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { ExtractionValuesInline } from './ExtractionSection';
import { ResourceLink } from './ResourceLink';
import { ValuesTable } from './results/ValuesTable';

/** The named link the chat would write, [name](schema:<revid>), falling back to a generic word while the name loads. */
function RevisionLink({ orgId, kind, revid, name }: { orgId: string; kind: 'schema' | 'prompt'; revid: string; name?: string }) {
  return (
    <ResourceLink orgId={orgId} href={`${kind}:${revid}`}>
      {name ?? `the ${kind}`}
    </ResourceLink>
  );
}

interface ProposalProps {
  orgId: string;
  document: DocumentSummary;
  /** The agent panel is busy (a turn runs): no review until it ends. */
  disabled: boolean;
  onRefine: (threadId: string) => void;
  /** The toggle of the run's log, in the row of buttons (so that the card stays short). */
  logToggle: ReactNode;
  /** The values on one line, while a conversation (the refinement) takes the panel. */
  compact: boolean;
}

/**
 * "I created schema X and prompt Y; here is what I extracted", with Accept, Reject and Refine. Kept
 * short (what each button does is in its tooltip), as it sits above the conversation.
 */
function Proposal({ orgId, document, disabled, onRefine, logToggle, compact }: ProposalProps) {
  const schemaRevid = document.auto_create_schema_revid;
  const promptRevid = document.auto_create_prompt_revid;
  const schema = useSchemaRevisionQuery(orgId, schemaRevid);
  const prompt = usePromptRevisionQuery(orgId, promptRevid);
  const results = useExtractionResultsQuery(orgId, document.id, false);
  const decide = useAutoCreateDecisionMutation(orgId, document.id);
  const refine = useRefineAutoCreateMutation(orgId, document.id);
  const busy = disabled || decide.isPending || refine.isPending;
  // The proposal's prompt may have a newer version after a refinement: its result is the prompt's newest.
  const result = results.data?.find(
    (candidate) =>
      candidate.prompt_revid === promptRevid || (prompt.data !== undefined && candidate.prompt_id === prompt.data.prompt_id),
  );

  function reject() {
    const confirmed = window.confirm(
      'Reject the auto-create proposal? The schema, the prompt and the extraction the agent created are deleted.',
    );
    if (confirmed) decide.mutate('reject');
  }

  return (
    <section
      aria-label="Auto-create proposal"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
    >
      <p>
        I created schema{' '}
        {schemaRevid ? <RevisionLink orgId={orgId} kind="schema" revid={schemaRevid} name={schema.data?.name} /> : '—'} and prompt{' '}
        {promptRevid ? <RevisionLink orgId={orgId} kind="prompt" revid={promptRevid} name={prompt.data?.name} /> : '—'}; here is
        what I extracted:
      </p>
      <div
        className={`relative overflow-y-auto rounded border border-amber-200 bg-white px-2 text-xs ${compact ? 'py-1' : 'max-h-24 py-1.5'}`}
      >
        {result ? (
          compact ? (
            <ExtractionValuesInline values={result.updated_llm_result} />
          ) : (
            <ValuesTable values={result.updated_llm_result} label="Proposed values" />
          )
        ) : results.isError ? (
          <ErrorAlert title="Could not load the extraction" error={results.error} onRetry={() => void results.refetch()} />
        ) : (
          <p className="text-slate-500">{results.isPending ? 'Loading the extraction…' : 'No extraction stored.'}</p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button disabled={busy} title="Keeps the prompt as a normal prompt" onClick={() => decide.mutate('accept')}>
          Accept
        </Button>
        <Button
          variant="secondary"
          disabled={busy}
          title="Opens a conversation that goes on from this proposal"
          onClick={() => refine.mutate(undefined, { onSuccess: onRefine })}
        >
          Refine in chat
        </Button>
        <Button variant="danger" disabled={busy} title="Deletes the schema, the prompt and the extraction" onClick={reject}>
          Reject
        </Button>
        <span className="ml-auto">{logToggle}</span>
      </div>
      {decide.isError && (
        <ErrorAlert
          title={`Could not ${decide.variables === 'reject' ? 'reject' : 'accept'} the proposal`}
          error={decide.error}
        />
      )}
      {refine.isError && <ErrorAlert title="Could not open a conversation to refine the proposal" error={refine.error} />}
    </section>
  );
}

/** Runs auto-create again (after a failure or a rejection), or now (after waiting for a model). */
function StartAgain({
  orgId,
  documentId,
  label,
  disabled,
}: {
  orgId: string;
  documentId: string;
  label: string;
  disabled: boolean;
}) {
  const start = useAutoCreateDecisionMutation(orgId, documentId);
  return (
    <div className="space-y-2">
      <Button
        variant="secondary"
        className="px-2 py-0.5 text-xs"
        disabled={disabled || start.isPending}
        onClick={() => start.mutate('start')}
      >
        {label}
      </Button>
      {start.isError && <ErrorAlert title="Could not start auto-create" error={start.error} />}
    </div>
  );
}

interface AutoCreateReviewProps {
  orgId: string;
  document: DocumentSummary;
  disabled: boolean;
  onRefine: (threadId: string) => void;
  /** The run's log is shown (in place of the conversation). */
  logShown: boolean;
  onToggleLog: () => void;
  /** A conversation is shown: the proposal's values take one line. */
  compact: boolean;
}

/** The agent panel's account of the auto-create run, by status; nothing for documents uploaded without it. */
export function AutoCreateReview({ orgId, document, disabled, onRefine, logShown, onToggleLog, compact }: AutoCreateReviewProps) {
  const status = document.auto_create_status;
  if (status === undefined) return null;
  // The log exists once a run ended; while it runs there is nothing to replay yet.
  const logToggle = isAutoCreatePending(status) ? null : (
    <Button variant="secondary" className="px-2 py-0.5 text-xs" aria-expanded={logShown} onClick={onToggleLog}>
      {logShown ? "Hide the agent's log" : "View the agent's log"}
    </Button>
  );

  let body: ReactNode;
  if (isAutoCreatePending(status)) {
    body = (
      <div role="status" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
        <p className="flex items-center gap-2 font-medium">
          <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />
          {status === 'running' ? 'Auto-create is working…' : 'Auto-create is working… (waiting for the text and a model)'}
        </p>
        {document.auto_create_error && (
          <>
            <p className="mt-1 text-xs">{document.auto_create_error}</p>
            {status === 'pending' && (
              <div className="mt-2">
                <StartAgain orgId={orgId} documentId={document.id} label="Try now" disabled={disabled} />
              </div>
            )}
          </>
        )}
      </div>
    );
  } else if (status === 'proposed') {
    // The proposal has the log's toggle in its row of buttons.
    return (
      <Proposal
        orgId={orgId}
        document={document}
        disabled={disabled}
        onRefine={onRefine}
        logToggle={logToggle}
        compact={compact}
      />
    );
  } else if (status === 'failed') {
    body = (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
        <p className="font-medium">Auto-create failed: {document.auto_create_error ?? 'the agent gave no reason.'}</p>
        <p className="mt-1 text-xs">
          Nothing it created was kept. Try again (after checking the auto-create model in Settings → Models if the model failed),
          or ask the agent below to create a schema and a prompt for this document.
        </p>
        <div className="mt-2">
          <StartAgain orgId={orgId} documentId={document.id} label="Try again" disabled={disabled} />
        </div>
      </div>
    );
  } else {
    body = (
      <div role="status" className="space-y-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
        <p>
          {status === 'accepted'
            ? 'Auto-create proposal accepted: its prompt is a normal prompt now.'
            : 'Auto-create proposal rejected: its schema, prompt and extraction were deleted.'}
        </p>
        {status === 'rejected' && (
          <StartAgain orgId={orgId} documentId={document.id} label="Run auto-create again" disabled={disabled} />
        )}
      </div>
    );
  }

  return (
    <div className="space-y-2">
      {body}
      {logToggle}
    </div>
  );
}
