import { useState } from 'react';
import { Button } from '../components/Button';
import { ListPageHeader } from '../components/ListPageHeader';
import { useCurrentOrg } from '../layout/OrgRoute';
import { CreateDatasetForm } from './CreateDatasetForm';
import { DatasetsSection } from './DatasetsSection';
import { DatasetUploadPanel } from './DatasetUploadPanel';

export function DatasetsPage() {
  const org = useCurrentOrg();
  const [isCreating, setIsCreating] = useState(false);
  return (
    <>
      <ListPageHeader title="Datasets">
        {!isCreating && <Button onClick={() => setIsCreating(true)}>New dataset</Button>}
      </ListPageHeader>
      {/* Keyed by organization so that uploads in progress never show up under another one. */}
      <div key={org.id} className="space-y-6">
        {isCreating && <CreateDatasetForm orgId={org.id} onCancel={() => setIsCreating(false)} />}
        <DatasetUploadPanel orgId={org.id} />
        <DatasetsSection orgId={org.id} />
      </div>
    </>
  );
}
