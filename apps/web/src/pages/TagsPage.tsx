import { PageHeader } from '../components/PageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { CreateTagForm } from '../tags/CreateTagForm';
import { TagsSection } from '../tags/TagsSection';

export function TagsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <PageHeader title="Tags" />
      {/* Keyed by organization so that an edit or an error never stays on screen after switching. */}
      <div key={org.id} className="space-y-8">
        <CreateTagForm orgId={org.id} />
        <TagsSection orgId={org.id} />
      </div>
    </>
  );
}
