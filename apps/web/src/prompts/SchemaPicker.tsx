import { useSchemaChoicesQuery, useSchemaVersionsQuery } from '../api/schemas';
import { ErrorAlert } from '../components/ErrorAlert';
import { SelectField } from '../components/SelectField';

export interface SchemaChoice {
  schemaId: string | null;
  /** Null: the schema's latest version when the prompt is saved. */
  version: number | null;
}

interface SchemaPickerProps {
  orgId: string;
  value: SchemaChoice;
  onChange: (choice: SchemaChoice) => void;
}

const LATEST = 'latest';

/** Which schema the prompt's answers follow, and which of its versions. */
export function SchemaPicker({ orgId, value, onChange }: SchemaPickerProps) {
  const schemasQuery = useSchemaChoicesQuery(orgId);
  const versionsQuery = useSchemaVersionsQuery(orgId, value.schemaId);
  const schemas = schemasQuery.data ?? [];
  const versions = versionsQuery.data ?? [];
  // A schema beyond the first hundred, or one the list has not loaded yet, still shows as chosen.
  const isListed = value.schemaId === null || schemas.some((schema) => schema.schema_id === value.schemaId);
  const latest = versions[0]?.schema_version;
  // A pinned version the versions list lacks (still loading) still shows as chosen.
  const isVersionListed = value.version === null || versions.some((version) => version.schema_version === value.version);

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-3">
        <SelectField
          label="Schema"
          className="w-full max-w-xs"
          hint="The fields the model extracts; none for a free-text answer."
          disabled={schemasQuery.isPending}
          value={value.schemaId ?? ''}
          onChange={(event) => onChange({ schemaId: event.target.value || null, version: null })}
        >
          <option value="">No schema</option>
          {schemas.map((schema) => (
            <option key={schema.schema_id} value={schema.schema_id}>
              {schema.name}
            </option>
          ))}
          {!isListed && value.schemaId !== null && <option value={value.schemaId}>{value.schemaId}</option>}
        </SelectField>
        <SelectField
          label="Schema version"
          className="w-full max-w-48"
          hint="Latest takes the newest version when the prompt is saved."
          disabled={value.schemaId === null || versionsQuery.isPending}
          value={value.version === null ? LATEST : String(value.version)}
          onChange={(event) => onChange({ ...value, version: event.target.value === LATEST ? null : Number(event.target.value) })}
        >
          <option value={LATEST}>{latest === undefined ? 'Latest' : `Latest (version ${latest})`}</option>
          {versions.map((version) => (
            <option key={version.schema_version} value={version.schema_version}>
              Version {version.schema_version}
            </option>
          ))}
          {!isVersionListed && value.version !== null && <option value={value.version}>Version {value.version}</option>}
        </SelectField>
      </div>
      {schemasQuery.isError && (
        <ErrorAlert title="Could not load the schemas" error={schemasQuery.error} onRetry={() => void schemasQuery.refetch()} />
      )}
      {versionsQuery.isError && (
        <ErrorAlert
          title="Could not load the schema's versions"
          error={versionsQuery.error}
          onRetry={() => void versionsQuery.refetch()}
        />
      )}
    </div>
  );
}
