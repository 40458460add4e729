import { listPageSize } from '../api/pagedList';
import { type Tag, useDeleteTagMutation, useTagsPageQuery } from '../api/tags';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { useClampedSkip } from '../lib/useClampedSkip';
import { useNameListParams } from '../lib/useNameListParams';
import { TagsTable } from './TagsTable';

/** The organization's tags: search, table with inline edit and delete, and pages. */
export function TagsSection({ orgId }: { orgId: string }) {
  const { params, update } = useNameListParams();
  const tagsQuery = useTagsPageQuery(orgId, params);
  const deleteTag = useDeleteTagMutation(orgId);
  const list = tagsQuery.data;
  useClampedSkip({
    skip: params.skip,
    pageSize: listPageSize,
    total: list?.total_count,
    isPlaceholder: tagsQuery.isPlaceholderData,
    onClamp: (skip) => update({ skip }, { replace: true }),
  });

  function confirmDelete(tag: Tag) {
    if (window.confirm(`Delete the tag “${tag.name}”?`)) {
      deleteTag.mutate(tag.id);
    }
  }

  return (
    <section aria-label="Tags" className="space-y-4">
      <NameSearch
        label="Search tags by name"
        value={params.nameSearch}
        onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
      />
      {tagsQuery.isError && (
        <ErrorAlert title="Could not load tags" error={tagsQuery.error} onRetry={() => void tagsQuery.refetch()} />
      )}
      {deleteTag.isError && <ErrorAlert title="Could not delete the tag" error={deleteTag.error} />}
      {tagsQuery.isPending && <LoadingState label="Loading tags…" />}
      {list && list.total_count === 0 && params.nameSearch === '' && (
        <EmptyState title="No tags yet" description="Create a tag above to label documents and prompts." />
      )}
      {list && list.total_count === 0 && params.nameSearch !== '' && (
        <EmptyState title="No matching tags" description="No tag name contains this search.">
          <Button variant="secondary" onClick={() => update({ nameSearch: '' })}>
            Show all tags
          </Button>
        </EmptyState>
      )}
      {list && list.total_count > 0 && (
        <>
          <TagsTable
            orgId={orgId}
            tags={list.tags}
            onDelete={confirmDelete}
            deletingId={deleteTag.isPending ? (deleteTag.variables ?? null) : null}
          />
          <Pagination
            label="Pages of tags"
            skip={list.skip}
            pageSize={listPageSize}
            shown={list.tags.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
