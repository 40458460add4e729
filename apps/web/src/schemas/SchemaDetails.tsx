import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { useDeleteSchemaMutation, useSchemaVersionsQuery } from '../api/schemas';
import { Button } from '../components/Button';
import { DetailHeader } from '../components/DetailHeader';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NotFoundState } from '../components/NotFoundState';
import { VersionList } from '../components/VersionList';
import { orgPath, schemaPagePath } from '../layout/orgPaths';
import { useShownVersion } from '../lib/useShownVersion';
import { SchemaEditor } from './SchemaEditor';
import { SchemaVersionView } from './SchemaVersionView';

/** An existing schema: its current version in the editor, or an older one read-only, beside the list of versions. */
export function SchemaDetails({ orgId, schemaId }: { orgId: string; schemaId: string }) {
  const navigate = useNavigate();
  const versionsQuery = useSchemaVersionsQuery(orgId, schemaId);
  const deleteSchema = useDeleteSchemaMutation(orgId);
  const requestedVersion = useShownVersion();
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const listPath = orgPath(orgId, 'schemas');
  const pagePath = schemaPagePath(orgId, schemaId);

  if (versionsQuery.isPending) {
    return <LoadingState label="Loading the schema…" />;
  }
  if (versionsQuery.error instanceof ApiError && versionsQuery.error.status === 404) {
    return <NotFoundState what="Schema" backTo={listPath} backLabel="Go to the schemas" />;
  }
  const [current] = versionsQuery.data ?? [];
  if (!current) {
    return (
      <ErrorAlert title="Could not load the schema" error={versionsQuery.error} onRetry={() => void versionsQuery.refetch()} />
    );
  }
  const versions = versionsQuery.data ?? [];
  const older = versions.find((version) => version.schema_version === requestedVersion && version !== current);

  const versionList = (
    <VersionList
      versions={versions.map((version) => ({ ...version, version: version.schema_version }))}
      shownVersion={older?.schema_version ?? current.schema_version}
      pagePath={pagePath}
    />
  );

  function confirmDelete() {
    if (window.confirm(`Delete the schema “${current?.name}” and all its versions?`)) {
      deleteSchema.mutate(schemaId, { onSuccess: () => navigate(listPath) });
    }
  }

  return (
    <div className="space-y-6">
      <DetailHeader backTo={listPath} backLabel="All schemas" title={current.name} version={current.schema_version}>
        <Button variant="danger" disabled={deleteSchema.isPending} onClick={confirmDelete}>
          Delete schema
        </Button>
      </DetailHeader>
      {deleteSchema.isError && <ErrorAlert title="Could not delete the schema" error={deleteSchema.error} />}
      {versionsQuery.isError && (
        <ErrorAlert
          title="Could not refresh the schema"
          error={versionsQuery.error}
          onRetry={() => void versionsQuery.refetch()}
        />
      )}
      {older ? (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_16rem]">
          <SchemaVersionView schema={older} currentPath={pagePath} />
          <div>{versionList}</div>
        </div>
      ) : (
        // Keyed by revision so that a saved version starts the editor again from what was saved.
        <div className="space-y-4">
          {savedVersion === current.schema_version && (
            <p role="status" className="rounded-md bg-emerald-50 px-4 py-2 text-sm text-emerald-800">
              Saved as version {savedVersion}.
            </p>
          )}
          <SchemaEditor
            key={current.schema_revid}
            orgId={orgId}
            schema={current}
            onSaved={(saved) => setSavedVersion(saved.schema_version)}
            aside={versionList}
          />
        </div>
      )}
    </div>
  );
}
