import { listPageSize } from '../api/pagedList';
import { type Schema, useDeleteSchemaMutation, useSchemasQuery } from '../api/schemas';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { useClampedSkip } from '../lib/useClampedSkip';
import { useNameListParams } from '../lib/useNameListParams';
import { SchemasTable } from './SchemasTable';

/** The current version of each of the organization's schemas: search, table and pages. */
export function SchemasSection({ orgId }: { orgId: string }) {
  const { params, update } = useNameListParams();
  const schemasQuery = useSchemasQuery(orgId, params);
  const deleteSchema = useDeleteSchemaMutation(orgId);
  const list = schemasQuery.data;
  useClampedSkip({
    skip: params.skip,
    pageSize: listPageSize,
    total: list?.total_count,
    isPlaceholder: schemasQuery.isPlaceholderData,
    onClamp: (skip) => update({ skip }, { replace: true }),
  });

  function confirmDelete(schema: Schema) {
    if (window.confirm(`Delete the schema “${schema.name}” and all its versions?`)) {
      deleteSchema.mutate(schema.schema_id);
    }
  }

  return (
    <section aria-label="Schemas" className="space-y-4">
      <NameSearch
        label="Search schemas by name"
        value={params.nameSearch}
        onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
      />
      {schemasQuery.isError && (
        <ErrorAlert title="Could not load schemas" error={schemasQuery.error} onRetry={() => void schemasQuery.refetch()} />
      )}
      {deleteSchema.isError && <ErrorAlert title="Could not delete the schema" error={deleteSchema.error} />}
      {schemasQuery.isPending && <LoadingState label="Loading schemas…" />}
      {list && list.total_count === 0 && params.nameSearch === '' && (
        <EmptyState
          title="No schemas yet"
          description="A schema says which fields to extract from documents. Create one to use it in prompts."
        />
      )}
      {list && list.total_count === 0 && params.nameSearch !== '' && (
        <EmptyState title="No matching schemas" description="No schema name contains this search.">
          <Button variant="secondary" onClick={() => update({ nameSearch: '' })}>
            Show all schemas
          </Button>
        </EmptyState>
      )}
      {list && list.total_count > 0 && (
        <>
          <SchemasTable
            orgId={orgId}
            schemas={list.schemas}
            onDelete={confirmDelete}
            deletingId={deleteSchema.isPending ? (deleteSchema.variables ?? null) : null}
          />
          <Pagination
            label="Pages of schemas"
            skip={list.skip}
            pageSize={listPageSize}
            shown={list.schemas.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
