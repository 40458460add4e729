import { useState } from 'react';
import { useLlmSettingsQuery } from '../api/llmSettings';
import { AutoCreateChoice } from './AutoCreateChoice';
import { UploadDropZone } from './UploadDropZone';
import { UploadList } from './UploadList';
import { useUploadQueue } from './useUploadQueue';

export function UploadPanel({ orgId }: { orgId: string }) {
  const { uploads, addFiles, remove, clearFinished } = useUploadQueue(orgId);
  const settingsQuery = useLlmSettingsQuery(orgId);
  // Null until the person chooses: until then the organization's default applies.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const autoCreate = chosen ?? settingsQuery.data?.auto_create_default ?? false;
  return (
    <div className="space-y-3">
      {/* Sent either way, so the organization's default never decides behind the checkbox. */}
      <UploadDropZone onFiles={(files) => addFiles(files, { auto_create: String(autoCreate) })} />
      <AutoCreateChoice checked={autoCreate} onChange={setChosen} disabled={settingsQuery.isPending && chosen === null} />
      {uploads.length > 0 && <UploadList orgId={orgId} uploads={uploads} onRemove={remove} onClearFinished={clearFinished} />}
    </div>
  );
}
