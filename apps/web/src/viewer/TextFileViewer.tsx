import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getText } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { ViewerToolbar } from './ViewerToolbar';

/** Larger files show their beginning; the whole file is a download away. */
const MAX_CHARS = 2_000_000;

/** A text, Markdown or CSV file as it was uploaded. */
export function TextFileViewer({ url, toolbarStart }: { url: string; toolbarStart?: ReactNode }) {
  const fileQuery = useQuery({
    queryKey: ['document-file', url],
    queryFn: () => getText(url),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const text = fileQuery.data;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ViewerToolbar start={toolbarStart} />
      <div className="min-h-0 flex-1 overflow-auto bg-slate-100 p-4">
        {fileQuery.isPending ? (
          <LoadingState label="Loading the file…" />
        ) : fileQuery.isError ? (
          <ErrorAlert title="Could not load the file" error={fileQuery.error} onRetry={() => void fileQuery.refetch()} />
        ) : (
          <>
            {text !== undefined && text.length > MAX_CHARS && (
              <p className="mb-2 text-sm text-slate-600">
                The file is long: its beginning shows here. Download it to see all of it.
              </p>
            )}
            <pre className="rounded-md bg-white px-5 py-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200">
              {text?.slice(0, MAX_CHARS)}
            </pre>
          </>
        )}
      </div>
    </div>
  );
}
