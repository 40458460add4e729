import { useState } from 'react';
import { Button } from '../components/Button';
import { ListPageHeader } from '../components/ListPageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { CreateProjectForm } from './CreateProjectForm';
import { ProjectsSection } from './ProjectsSection';

export function ProjectsPage() {
  const org = useCurrentOrg();
  const [isCreating, setIsCreating] = useState(false);
  return (
    <>
      <ListPageHeader title="Projects">
        {!isCreating && <Button onClick={() => setIsCreating(true)}>New project</Button>}
      </ListPageHeader>
      <div key={org.id} className="space-y-6">
        {isCreating && <CreateProjectForm orgId={org.id} onCancel={() => setIsCreating(false)} />}
        <ProjectsSection orgId={org.id} onCreate={isCreating ? undefined : () => setIsCreating(true)} />
      </div>
    </>
  );
}
