import type { Prompt } from '../api/prompts';
import { useSchemaChoicesQuery } from '../api/schemas';

/** "Invoice, version 2", or the id while schemas load or when the schema is beyond the first hundred. */
export function SchemaLabel({ orgId, prompt }: { orgId: string; prompt: Prompt }) {
  const { data: schemas } = useSchemaChoicesQuery(orgId);
  if (prompt.schema_id === null) {
    return <span className="text-slate-400">No schema</span>;
  }
  const name = schemas?.find((schema) => schema.schema_id === prompt.schema_id)?.name ?? prompt.schema_id;
  return (
    <span>
      {name}, version {prompt.schema_version}
    </span>
  );
}
