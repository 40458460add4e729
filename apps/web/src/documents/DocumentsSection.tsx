import { useEffect, useState } from 'react';
import { documentsPageSize, useDeleteDocumentMutation, useDocumentsQuery } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { AutoCreateFilter } from './AutoCreateFilter';
import { rememberDocumentList } from './adjacentDocuments';
import { BulkActionsBar } from './BulkActionsBar';
import { DocumentsTable } from './DocumentsTable';
import { ActiveTagFilter } from './TagChip';
import { useDocumentListParams } from './useDocumentListParams';

/** The organization's documents: search, tag and auto-create filters, table and pages. */
export function DocumentsSection({ orgId }: { orgId: string }) {
  const { params, update } = useDocumentListParams();
  const documentsQuery = useDocumentsQuery(orgId, params);
  useEffect(() => rememberDocumentList(orgId, params), [orgId, params]);
  const deleteDocument = useDeleteDocumentMutation(orgId);
  const isFiltered =
    params.nameSearch !== '' || params.tagIds.length > 0 || params.autoCreateStatus !== null || params.needsReview === true;
  const list = documentsQuery.data;
  const [chosenIds, setChosenIds] = useState<ReadonlySet<string>>(new Set());
  // Only what is on the page can be chosen: a choice does not follow the list elsewhere.
  const chosen = (list?.documents ?? []).filter((d) => chosenIds.has(d.id));
  const everyChosen = list !== undefined && list.documents.length > 0 && chosen.length === list.documents.length;

  function choose(documentId: string, isChosen: boolean) {
    setChosenIds((current) => {
      const next = new Set(current);
      if (isChosen) next.add(documentId);
      else next.delete(documentId);
      return next;
    });
  }

  // Deleting the last document of the last page, or an old link, can leave the list past its end.
  const lastPageSkip = list ? Math.max(0, Math.ceil(list.total_count / documentsPageSize) - 1) * documentsPageSize : 0;
  const isPastEnd = list !== undefined && !documentsQuery.isPlaceholderData && params.skip > lastPageSkip;
  useEffect(() => {
    if (isPastEnd) {
      update({ skip: lastPageSkip }, { replace: true });
    }
  });

  function selectTag(tagId: string) {
    if (!params.tagIds.includes(tagId)) {
      update({ tagIds: [...params.tagIds, tagId] });
    }
  }

  function confirmDelete(document: DocumentSummary) {
    const confirmed = window.confirm(`Delete “${document.document_name}”? Its file and text will be removed for good.`);
    if (confirmed) {
      deleteDocument.mutate(document.id);
    }
  }

  return (
    <section aria-label="Documents" className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <NameSearch
          label="Search documents by name"
          value={params.nameSearch}
          onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
        />
        <AutoCreateFilter value={params.autoCreateStatus} onChange={(autoCreateStatus) => update({ autoCreateStatus })} />
        <label className="flex items-center gap-1.5 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={params.needsReview ?? false}
            onChange={(event) => update({ needsReview: event.target.checked })}
          />
          Fields to review
        </label>
        {params.tagIds.map((tagId) => (
          <ActiveTagFilter
            key={tagId}
            tagId={tagId}
            onRemove={(removed) => update({ tagIds: params.tagIds.filter((kept) => kept !== removed) })}
          />
        ))}
      </div>

      {documentsQuery.isError && (
        <ErrorAlert title="Could not load documents" error={documentsQuery.error} onRetry={() => void documentsQuery.refetch()} />
      )}
      {deleteDocument.isError && <ErrorAlert title="Could not delete the document" error={deleteDocument.error} />}

      {documentsQuery.isPending && <LoadingState label="Loading documents…" />}

      {list && list.total_count === 0 && !isFiltered && (
        <EmptyState
          title="No documents yet"
          description="Drop files above or choose them from your computer. Their text is extracted as soon as they arrive."
        />
      )}

      {list && list.total_count === 0 && isFiltered && (
        <EmptyState title="No matching documents" description="No document matches this name search and these filters.">
          <Button
            variant="secondary"
            onClick={() => update({ nameSearch: '', tagIds: [], autoCreateStatus: null, needsReview: false })}
          >
            Show all documents
          </Button>
        </EmptyState>
      )}

      {list && list.total_count > 0 && (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="size-4 rounded border-slate-300"
                checked={everyChosen}
                onChange={(event) => setChosenIds(new Set(event.target.checked ? list.documents.map((d) => d.id) : []))}
              />
              Choose all on this page
            </label>
          </div>
          {chosen.length > 0 && <BulkActionsBar orgId={orgId} selected={chosen} onClear={() => setChosenIds(new Set())} />}
          <DocumentsTable
            orgId={orgId}
            documents={list.documents}
            onTagSelect={selectTag}
            onDelete={confirmDelete}
            deletingId={deleteDocument.isPending ? (deleteDocument.variables ?? null) : null}
            chosen={chosenIds}
            onChoose={choose}
          />
          <Pagination
            label="Pages of documents"
            skip={list.skip}
            pageSize={documentsPageSize}
            shown={list.documents.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
