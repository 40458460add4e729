import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client';
import { type UploadFields, uploadDocument, useRefreshDocuments } from '../api/documents';

/** Enough to keep the connection busy without one big batch starving the rest of the app. */
const concurrentUploads = 3;

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed';

export interface Upload {
  key: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** Share of the request sent so far, 0 to 1. */
  sent: number;
  error: string | null;
  documentId: string | null;
}

interface QueuedFile {
  key: number;
  file: File;
  /** Chosen when the file was added: changing the form later does not change queued files. */
  fields: UploadFields;
}

/**
 * Uploads files one request each, a few at a time, and tracks each file's progress and
 * outcome so that a refused file shows its own reason while the others go on. `onUploaded`
 * follows each stored file, for lists besides the documents' that it changes (a dataset's tables).
 */
export function useUploadQueue(orgId: string, onUploaded?: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const waiting = useRef<QueuedFile[]>([]);
  const running = useRef(new Map<number, AbortController>());
  const nextKey = useRef(1);
  const refreshDocuments = useRefreshDocuments(orgId);

  function change(key: number, changes: Partial<Upload>) {
    setUploads((current) => current.map((upload) => (upload.key === key ? { ...upload, ...changes } : upload)));
  }

  async function run({ key, file, fields }: QueuedFile, controller: AbortController) {
    change(key, { status: 'uploading' });
    try {
      const uploaded = await uploadDocument(
        orgId,
        file,
        fields,
        ({ loaded, total }) => change(key, { sent: total > 0 ? loaded / total : 0 }),
        controller.signal,
      );
      change(key, { status: 'done', sent: 1, documentId: uploaded.document_id });
      void refreshDocuments();
      onUploaded?.();
    } catch (error) {
      change(key, { status: 'failed', error: errorMessage(error) });
    }
  }

  function startWaiting() {
    while (running.current.size < concurrentUploads) {
      const next = waiting.current.shift();
      if (!next) {
        return;
      }
      const controller = new AbortController();
      running.current.set(next.key, controller);
      void run(next, controller).finally(() => {
        running.current.delete(next.key);
        startWaiting();
      });
    }
  }

  function addFiles(files: File[], fields: UploadFields) {
    const queued = files.map((file) => ({ key: nextKey.current++, file, fields }));
    setUploads((current) => [
      ...current,
      ...queued.map(({ key, file }) => ({
        key,
        name: file.name,
        size: file.size,
        status: 'queued' as const,
        sent: 0,
        error: null,
        documentId: null,
      })),
    ]);
    waiting.current.push(...queued);
    startWaiting();
  }

  /** Stops a waiting or running upload and forgets it, or removes a finished one from the list. */
  function remove(key: number) {
    waiting.current = waiting.current.filter((queued) => queued.key !== key);
    running.current.get(key)?.abort();
    setUploads((current) => current.filter((upload) => upload.key !== key));
  }

  function clearFinished() {
    setUploads((current) => current.filter((upload) => upload.status === 'queued' || upload.status === 'uploading'));
  }

  const isBusy = uploads.some((upload) => upload.status === 'queued' || upload.status === 'uploading');
  // Leaving the page would cut the running requests and drop the waiting files.
  useEffect(() => {
    if (!isBusy) {
      return;
    }
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isBusy]);

  return { uploads, addFiles, remove, clearFinished };
}
