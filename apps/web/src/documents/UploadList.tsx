import { Link } from 'react-router';
import { Button } from '../components/Button';
import { documentPagePath } from '../layout/orgPaths';
import { formatBytes } from '../lib/format';
import type { Upload } from './useUploadQueue';

function statusText(upload: Upload): string {
  switch (upload.status) {
    case 'queued':
      return 'Waiting…';
    case 'uploading':
      // Once every byte is sent the server is still sniffing and storing the file.
      return upload.sent < 1 ? `${Math.floor(upload.sent * 100)}%` : 'Storing…';
    case 'done':
      return 'Done';
    case 'failed':
      return 'Failed';
  }
}

const barClasses: Record<Upload['status'], string> = {
  queued: 'bg-slate-300',
  uploading: 'bg-sky-600',
  done: 'bg-emerald-600',
  failed: 'bg-red-500',
};

function UploadRow({ orgId, upload, onRemove }: { orgId: string; upload: Upload; onRemove: (key: number) => void }) {
  const percent = Math.round(upload.sent * 100);
  const isActive = upload.status === 'queued' || upload.status === 'uploading';
  return (
    <li aria-label={upload.name} className="px-4 py-2">
      <div className="flex items-center gap-4 text-sm">
        <span className="w-1/3 min-w-0 truncate font-medium text-slate-900" title={upload.name}>
          {upload.documentId ? (
            <Link to={documentPagePath(orgId, upload.documentId)} className="underline-offset-2 hover:underline">
              {upload.name}
            </Link>
          ) : (
            upload.name
          )}
        </span>
        <div
          role="progressbar"
          aria-label={`Upload of ${upload.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100"
        >
          <div
            className={`h-full rounded-full transition-[width] ${barClasses[upload.status]}`}
            style={{ width: `${percent}%` }}
          />
        </div>
        <span className="w-16 text-right text-xs text-slate-500 tabular-nums">{formatBytes(upload.size)}</span>
        <span
          className={`w-16 text-xs font-medium tabular-nums ${upload.status === 'failed' ? 'text-red-700' : 'text-slate-700'}`}
        >
          {statusText(upload)}
        </span>
        <Button
          variant="secondary"
          className="px-2 py-0.5 text-xs"
          aria-label={isActive ? `Cancel the upload of ${upload.name}` : `Dismiss ${upload.name}`}
          onClick={() => onRemove(upload.key)}
        >
          {isActive ? 'Cancel' : 'Dismiss'}
        </Button>
      </div>
      {upload.error && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {upload.error}
        </p>
      )}
    </li>
  );
}

function UploadSummary({ uploads }: { uploads: Upload[] }) {
  const done = uploads.filter((upload) => upload.status === 'done').length;
  const failed = uploads.filter((upload) => upload.status === 'failed').length;
  return (
    <p className="text-xs text-slate-600">
      {done} of {uploads.length} uploaded
      {failed > 0 && <span className="font-medium text-red-700"> · {failed} failed</span>}
    </p>
  );
}

interface UploadListProps {
  orgId: string;
  uploads: Upload[];
  onRemove: (key: number) => void;
  onClearFinished: () => void;
}

export function UploadList({ orgId, uploads, onRemove, onClearFinished }: UploadListProps) {
  const hasFinished = uploads.some((upload) => upload.status === 'done' || upload.status === 'failed');
  return (
    <section aria-labelledby="uploads-heading" className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
        <div className="flex items-baseline gap-3">
          <h2 id="uploads-heading" className="text-sm font-semibold text-slate-900">
            Uploads
          </h2>
          <UploadSummary uploads={uploads} />
        </div>
        {hasFinished && (
          <Button variant="secondary" className="px-2 py-0.5 text-xs" onClick={onClearFinished}>
            Clear finished
          </Button>
        )}
      </div>
      {/* A big batch scrolls inside the panel so the documents table stays in reach. */}
      <ul className="max-h-80 divide-y divide-slate-100 overflow-y-auto">
        {uploads.map((upload) => (
          <UploadRow key={upload.key} orgId={orgId} upload={upload} onRemove={onRemove} />
        ))}
      </ul>
    </section>
  );
}
