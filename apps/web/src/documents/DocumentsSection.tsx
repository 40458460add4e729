import { useEffect } from 'react';
import { documentsPageSize, useDeleteDocumentMutation, useDocumentsQuery } from '../api/documents';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { AutoCreateFilter } from './AutoCreateFilter';
import { DocumentsTable } from './DocumentsTable';
import { ActiveTagFilter } from './TagChip';
import { useDocumentListParams } from './useDocumentListParams';

/** The organization's documents: search, tag and auto-create filters, table and pages. */
export function DocumentsSection({ orgId }: { orgId: string }) {
  const { params, update } = useDocumentListParams();
  const documentsQuery = useDocumentsQuery(orgId, params);
  const deleteDocument = useDeleteDocumentMutation(orgId);
  const isFiltered = params.nameSearch !== '' || params.tagIds.length > 0 || params.autoCreateStatus !== null;
  const list = documentsQuery.data;

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
          <Button variant="secondary" onClick={() => update({ nameSearch: '', tagIds: [], autoCreateStatus: null })}>
            Show all documents
          </Button>
        </EmptyState>
      )}

      {list && list.total_count > 0 && (
        <>
          <DocumentsTable
            orgId={orgId}
            documents={list.documents}
            onTagSelect={selectTag}
            onDelete={confirmDelete}
            deletingId={deleteDocument.isPending ? (deleteDocument.variables ?? null) : null}
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
