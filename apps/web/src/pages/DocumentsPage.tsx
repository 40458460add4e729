import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';

export function DocumentsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title="Documents" />
      <EmptyState
        title="No documents yet"
        description={`Uploading documents comes next. Once it is available, the files you add to ${org.name} will be listed here.`}
      />
    </>
  );
}
