import { UploadDropZone } from '../documents/UploadDropZone';
import { UploadList } from '../documents/UploadList';
import { TABLE_FILES, useTableUploads } from './useTableUploads';

/** Files dropped here become tables of this dataset. */
export function TableUploader({ orgId, datasetId }: { orgId: string; datasetId: string }) {
  const { uploads, addTables, remove, clearFinished } = useTableUploads(orgId);
  return (
    <div className="space-y-3">
      <UploadDropZone {...TABLE_FILES} onFiles={(files) => addTables(files, datasetId)} />
      {uploads.length > 0 && <UploadList orgId={orgId} uploads={uploads} onRemove={remove} onClearFinished={clearFinished} />}
    </div>
  );
}
