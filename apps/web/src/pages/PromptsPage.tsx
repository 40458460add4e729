import { ButtonLink } from '../components/ButtonLink';
import { ListPageHeader } from '../components/ListPageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { promptPagePath } from '../layout/orgPaths';
import { PromptsSection } from '../prompts/PromptsSection';

export function PromptsPage() {
  const org = useCurrentOrg();
  return (
    <>
      <ListPageHeader title="Prompts">
        <ButtonLink to={promptPagePath(org.id, 'new')}>New prompt</ButtonLink>
      </ListPageHeader>
      <PromptsSection key={org.id} orgId={org.id} />
    </>
  );
}
