import { ButtonLink } from '../components/ButtonLink';
import { ListPageHeader } from '../components/ListPageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { schemaPagePath } from '../layout/orgPaths';
import { SchemasSection } from '../schemas/SchemasSection';

export function SchemasPage() {
  const org = useCurrentOrg();
  return (
    <>
      <ListPageHeader title="Schemas">
        <ButtonLink to={schemaPagePath(org.id, 'new')}>New schema</ButtonLink>
      </ListPageHeader>
      <SchemasSection key={org.id} orgId={org.id} />
    </>
  );
}
