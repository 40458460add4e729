import { UploadDropZone } from './UploadDropZone';
import { UploadList } from './UploadList';
import { useUploadQueue } from './useUploadQueue';

export function UploadPanel({ orgId }: { orgId: string }) {
  const { uploads, addFiles, remove, clearFinished } = useUploadQueue(orgId);
  return (
    <div className="space-y-3">
      <UploadDropZone onFiles={addFiles} />
      {uploads.length > 0 && <UploadList orgId={orgId} uploads={uploads} onRemove={remove} onClearFinished={clearFinished} />}
    </div>
  );
}
