import { listPageSize } from '../api/pagedList';
import { type Prompt, useDeletePromptMutation, usePromptsQuery } from '../api/prompts';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { useClampedSkip } from '../lib/useClampedSkip';
import { useNameListParams } from '../lib/useNameListParams';
import { PromptsTable } from './PromptsTable';

/** The current version of each of the organization's prompts: search, table and pages. */
export function PromptsSection({ orgId }: { orgId: string }) {
  const { params, update } = useNameListParams();
  const promptsQuery = usePromptsQuery(orgId, params);
  const deletePrompt = useDeletePromptMutation(orgId);
  const list = promptsQuery.data;
  useClampedSkip({
    skip: params.skip,
    pageSize: listPageSize,
    total: list?.total_count,
    isPlaceholder: promptsQuery.isPlaceholderData,
    onClamp: (skip) => update({ skip }, { replace: true }),
  });

  function confirmDelete(prompt: Prompt) {
    if (window.confirm(`Delete the prompt “${prompt.name}” and all its versions?`)) {
      deletePrompt.mutate(prompt.prompt_id);
    }
  }

  return (
    <section aria-label="Prompts" className="space-y-4">
      <NameSearch
        label="Search prompts by name"
        value={params.nameSearch}
        onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
      />
      {promptsQuery.isError && (
        <ErrorAlert title="Could not load prompts" error={promptsQuery.error} onRetry={() => void promptsQuery.refetch()} />
      )}
      {deletePrompt.isError && <ErrorAlert title="Could not delete the prompt" error={deletePrompt.error} />}
      {promptsQuery.isPending && <LoadingState label="Loading prompts…" />}
      {list && list.total_count === 0 && params.nameSearch === '' && (
        <EmptyState
          title="No prompts yet"
          description="A prompt tells the model what to extract from documents, following a schema. Create one to get started."
        />
      )}
      {list && list.total_count === 0 && params.nameSearch !== '' && (
        <EmptyState title="No matching prompts" description="No prompt name contains this search.">
          <Button variant="secondary" onClick={() => update({ nameSearch: '' })}>
            Show all prompts
          </Button>
        </EmptyState>
      )}
      {list && list.total_count > 0 && (
        <>
          <PromptsTable
            orgId={orgId}
            prompts={list.prompts}
            onDelete={confirmDelete}
            deletingId={deletePrompt.isPending ? (deletePrompt.variables ?? null) : null}
          />
          <Pagination
            label="Pages of prompts"
            skip={list.skip}
            pageSize={listPageSize}
            shown={list.prompts.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
