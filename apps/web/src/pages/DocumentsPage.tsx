import { PageHeader } from '../components/PageHeader';
import { DocumentsSection } from '../documents/DocumentsSection';
import { UploadPanel } from '../documents/UploadPanel';
import { useCurrentOrg } from '../layout/OrgRoute';

export function DocumentsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title="Documents" />
      {/* Keyed by organization so that uploads in progress never show up under another one. */}
      <div key={org.id} className="space-y-8">
        <UploadPanel orgId={org.id} />
        <DocumentsSection orgId={org.id} />
      </div>
    </>
  );
}
