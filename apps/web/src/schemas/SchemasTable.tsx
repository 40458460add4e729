import { Link } from 'react-router';
import { fieldCount, type Schema } from '../api/schemas';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { schemaPagePath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';

const COLUMNS = ['Name', 'Version', 'Fields', 'Updated'];

interface SchemasTableProps {
  orgId: string;
  /** The current version of each schema. */
  schemas: Schema[];
  onDelete: (schema: Schema) => void;
  /** The schema whose deletion is under way, if any. */
  deletingId: string | null;
}

export function SchemasTable({ orgId, schemas, onDelete, deletingId }: SchemasTableProps) {
  return (
    <DataTable columns={COLUMNS}>
      {schemas.map((schema) => (
        <tr key={schema.schema_id} className="align-top">
          <td className="max-w-72 px-4 py-2.5">
            <Link
              to={schemaPagePath(orgId, schema.schema_id)}
              className="font-medium break-words text-slate-900 underline-offset-2 hover:underline"
            >
              {schema.name}
            </Link>
          </td>
          <td className="px-4 py-2.5 tabular-nums">{schema.schema_version}</td>
          <td className="px-4 py-2.5 tabular-nums">{fieldCount(schema)}</td>
          <td className="px-4 py-2.5 whitespace-nowrap">
            <time dateTime={schema.created_at}>{formatDateTime(schema.created_at)}</time>
          </td>
          <td className="px-4 py-2.5 text-right">
            <Button
              variant="danger"
              className="px-2.5 py-1 text-xs"
              aria-label={`Delete schema ${schema.name}`}
              disabled={deletingId === schema.schema_id}
              onClick={() => onDelete(schema)}
            >
              Delete
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
