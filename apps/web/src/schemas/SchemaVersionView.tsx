import { Link } from 'react-router';
import type { Schema } from '../api/schemas';
import { formatDateTime } from '../lib/format';
import { formatJson } from './starterSchema';

interface SchemaVersionViewProps {
  schema: Schema;
  /** The page of the current version, which can be edited. */
  currentPath: string;
}

/** An older version of a schema, read-only: saved versions never change. */
export function SchemaVersionView({ schema, currentPath }: SchemaVersionViewProps) {
  return (
    <section aria-label={`Version ${schema.schema_version}`} className="space-y-4">
      <div className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        <p>
          You are viewing version {schema.schema_version}, saved {formatDateTime(schema.created_at)} by {schema.created_by}. Older
          versions are read-only.
        </p>
        <Link to={currentPath} className="font-medium underline">
          Edit the current version
        </Link>
      </div>
      <dl className="space-y-3 text-sm">
        <div>
          <dt className="font-medium text-slate-800">Schema name</dt>
          <dd className="text-slate-700">{schema.name}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Response format (JSON)</dt>
          <dd>
            <pre className="mt-1 overflow-x-auto rounded-md border border-slate-200 bg-white px-3 py-2 font-mono text-xs leading-5 text-slate-900">
              {formatJson(schema.response_format)}
            </pre>
          </dd>
        </div>
      </dl>
    </section>
  );
}
