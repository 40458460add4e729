import { useNavigate, useParams } from 'react-router';
import { DetailHeader } from '../components/DetailHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath, schemaPagePath } from '../layout/orgPaths';
import { SchemaDetails } from '../schemas/SchemaDetails';
import { SchemaEditor } from '../schemas/SchemaEditor';

function NewSchema({ orgId }: { orgId: string }) {
  const navigate = useNavigate();
  return (
    <div className="space-y-6">
      <DetailHeader backTo={orgPath(orgId, 'schemas')} backLabel="All schemas" title="New schema" />
      <SchemaEditor
        orgId={orgId}
        schema={null}
        onSaved={(saved) => navigate(schemaPagePath(orgId, saved.schema_id), { replace: true })}
      />
    </div>
  );
}

/** A schema's page, or the form for a new one at schemas/new. */
export function SchemaPage() {
  const org = useCurrentOrg();
  const { schemaId } = useParams();
  if (!schemaId) {
    return null;
  }
  // Keyed so that moving to another schema starts from its own loading state.
  return schemaId === 'new' ? (
    <NewSchema key={org.id} orgId={org.id} />
  ) : (
    <SchemaDetails key={`${org.id}/${schemaId}`} orgId={org.id} schemaId={schemaId} />
  );
}
