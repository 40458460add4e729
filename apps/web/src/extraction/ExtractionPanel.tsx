import { type ReactNode, useEffect, useRef } from 'react';
import { hasText, isExtractionPending } from '../api/documents';
import {
  type ExtractionResult,
  useDocumentPromptsQuery,
  useExtractionResultsQuery,
  useRefreshExtraction,
} from '../api/extraction';
import { useModelOfferQuery } from '../api/models';
import type { ListedPrompt } from '../api/prompts';
import type { DocumentSummary } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { ExtractionStatus } from './ExtractionStatus';
import { NoModelNotice } from './NoModelNotice';
import { PromptResultCard } from './PromptResultCard';

interface Entry {
  promptId: string;
  name: string;
  promptRevid: string;
  promptVersion: number;
  result: ExtractionResult | undefined;
  /** An auto-create proposal's prompt that nobody accepted yet. */
  pendingReview: boolean;
}

/**
 * The prompts that run on the document, each with its result, in the order the server lists
 * results (the default prompt's first), those without a result after them, oldest first; then
 * results of prompts that no longer run on the document.
 */
function entriesOf(prompts: ListedPrompt[], results: ExtractionResult[], proposedPromptRevid: string | undefined): Entry[] {
  const byPrompt = new Map(results.map((result) => [result.prompt_id, result]));
  const rank = new Map(results.map((result, index) => [result.prompt_id, index]));
  const rankOf = (prompt: ListedPrompt) => rank.get(prompt.prompt_id) ?? results.length;
  const running = [...prompts]
    .sort((a, b) => rankOf(a) - rankOf(b) || a.created_at.localeCompare(b.created_at))
    .map((prompt) => ({
      promptId: prompt.prompt_id,
      name: prompt.name,
      promptRevid: prompt.prompt_revid,
      promptVersion: prompt.prompt_version,
      result: byPrompt.get(prompt.prompt_id),
      pendingReview: prompt.auto_create_pending_review === true,
    }));
  const listed = new Set(prompts.map((prompt) => prompt.prompt_id));
  const former = results
    .filter((result) => !listed.has(result.prompt_id))
    .map((result) => ({
      promptId: result.prompt_id,
      name: result.prompt_display_name,
      promptRevid: result.prompt_revid,
      promptVersion: result.prompt_version,
      result,
      pendingReview: result.prompt_revid === proposedPromptRevid,
    }));
  return [...running, ...former];
}

interface ExtractionPanelProps {
  orgId: string;
  document: DocumentSummary;
}

/** What the document's prompts extracted, for people to correct, verify and run again. */
export function ExtractionPanel({ orgId, document }: ExtractionPanelProps) {
  const textReady = hasText(document.state);
  const processing = isExtractionPending(document.state);
  const offerQuery = useModelOfferQuery(orgId);
  const promptsQuery = useDocumentPromptsQuery(orgId, document.id);
  const resultsQuery = useExtractionResultsQuery(orgId, document.id, processing);
  const refresh = useRefreshExtraction(orgId, document.id);

  // A state change means prompts ran (or the tags changed what runs), and an auto-create status
  // change means its proposal's result arrived or went: the last poll may predate either.
  const stateKey = `${document.state}/${document.auto_create_status ?? ''}`;
  const shownState = useRef(stateKey);
  useEffect(() => {
    if (shownState.current !== stateKey) {
      shownState.current = stateKey;
      void refresh();
    }
  }, [stateKey, refresh]);

  const hint = offerQuery.data?.configure_hint ?? null;
  let body: ReactNode;
  if (promptsQuery.isPending || resultsQuery.isPending) {
    body = <LoadingState label="Loading the results…" />;
  } else if (promptsQuery.isError || resultsQuery.isError) {
    body = (
      <ErrorAlert
        title="Could not load the results"
        error={promptsQuery.error ?? resultsQuery.error}
        onRetry={() => void refresh()}
      />
    );
  } else {
    const proposed = document.auto_create_status === 'proposed' ? document.auto_create_prompt_revid : undefined;
    body = entriesOf(promptsQuery.data, resultsQuery.data, proposed).map((entry) => (
      <PromptResultCard
        key={entry.promptId}
        orgId={orgId}
        documentId={document.id}
        promptName={entry.name}
        promptRevid={entry.promptRevid}
        promptVersion={entry.promptVersion}
        result={entry.result}
        pendingReview={entry.pendingReview}
        runBlocked={!textReady || processing || hint !== null}
      />
    ));
  }

  return (
    <section aria-labelledby="extraction-heading" className="space-y-4">
      {/* The side panel's tab already says "Extraction" on screen; the heading names the region. */}
      <h2 id="extraction-heading" className="sr-only">
        Extraction
      </h2>
      {hint !== null && <NoModelNotice hint={hint} />}
      {offerQuery.isError && (
        <ErrorAlert title="Could not load the models" error={offerQuery.error} onRetry={() => void offerQuery.refetch()} />
      )}
      <ExtractionStatus document={document} />
      {body}
    </section>
  );
}
