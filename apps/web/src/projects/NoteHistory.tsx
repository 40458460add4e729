import { useId, useState } from 'react';
import { type NoteVersionSummary, useNoteDiffQuery, useNoteVersionsQuery } from '../api/notes';
import { DiffView } from '../components/DiffView';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { formatDateTime } from '../lib/format';

const numberFormat = new Intl.NumberFormat();

function VersionRow({ entry, compared, onCompare }: { entry: NoteVersionSummary; compared: boolean; onCompare: () => void }) {
  return (
    <li className={`flex items-start gap-2 px-3 py-1.5 ${compared ? 'bg-sky-50' : ''}`}>
      <div className="min-w-0 flex-1 text-xs">
        <p className="text-slate-900">
          <span className="font-semibold">v{entry.version}</span>
          <span
            className={`ml-1.5 rounded-full px-1.5 py-px font-medium ${entry.source === 'agent' ? 'bg-violet-100 text-violet-800' : 'bg-slate-100 text-slate-700'}`}
          >
            {entry.source === 'agent' ? 'agent' : 'person'}
          </span>
          <span className="ml-1.5 text-slate-500">
            <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time> · {entry.created_by} ·{' '}
            {numberFormat.format(entry.size)} characters
          </span>
        </p>
        {entry.summary && <p className="truncate text-slate-600">{entry.summary}</p>}
      </div>
      {entry.version > 1 && (
        <button
          type="button"
          aria-pressed={compared}
          onClick={onCompare}
          className="shrink-0 rounded px-1.5 py-0.5 text-xs font-medium text-slate-700 underline-offset-2 hover:underline"
        >
          <span className="sr-only">Version {entry.version}: </span>Changes
        </button>
      )}
    </li>
  );
}

function VersionSelect({
  label,
  value,
  versions,
  onChange,
}: {
  label: string;
  value: number;
  versions: number[];
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <span className="inline-flex items-center gap-1">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        className="rounded border border-slate-300 bg-white px-1 py-0.5 text-xs text-slate-900"
      >
        {versions.map((version) => (
          <option key={version} value={version}>
            v{version}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Every version of the note (newest first) and what changed between any two of them. */
export function NoteHistory({ orgId, projectId, noteId }: { orgId: string; projectId: string; noteId: string }) {
  const versionsQuery = useNoteVersionsQuery(orgId, projectId, noteId);
  const versions = versionsQuery.data ?? [];
  const latest = versions[0]?.version ?? null;
  const [chosen, setChosen] = useState<{ from: number; to: number } | null>(null);
  const pair = chosen ?? (latest !== null && latest > 1 ? { from: latest - 1, to: latest } : null);
  const diffQuery = useNoteDiffQuery(orgId, projectId, noteId, pair?.from ?? null, pair?.to ?? null);
  const numbers = versions.map((entry) => entry.version);

  return (
    <section aria-label="Note history" className="flex min-h-0 flex-1 flex-col gap-2">
      {versionsQuery.isPending && <LoadingState label="Loading the versions…" />}
      {versionsQuery.isError && (
        <ErrorAlert
          title="Could not load the versions"
          error={versionsQuery.error}
          onRetry={() => void versionsQuery.refetch()}
        />
      )}
      <ol
        aria-label="Versions"
        className="max-h-44 shrink-0 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200"
      >
        {versions.map((entry) => (
          <VersionRow
            key={entry.version}
            entry={entry}
            compared={pair?.to === entry.version}
            onCompare={() => setChosen({ from: entry.version - 1, to: entry.version })}
          />
        ))}
      </ol>
      {pair && (
        <div className="flex min-h-0 flex-1 flex-col gap-1.5">
          <div className="flex shrink-0 flex-wrap items-center gap-3 text-xs text-slate-700">
            <span className="font-medium">Compare</span>
            <VersionSelect label="from" value={pair.from} versions={numbers} onChange={(from) => setChosen({ ...pair, from })} />
            <VersionSelect label="to" value={pair.to} versions={numbers} onChange={(to) => setChosen({ ...pair, to })} />
          </div>
          {pair.from === pair.to && <p className="text-xs text-slate-500">Choose two different versions.</p>}
          {diffQuery.isLoading && <LoadingState label="Loading the changes…" />}
          {diffQuery.isError && <ErrorAlert title="Could not load the changes" error={diffQuery.error} />}
          {diffQuery.data && pair.from !== pair.to && (
            <DiffView
              diff={diffQuery.data.diff}
              label={`Changes from version ${diffQuery.data.from} to ${diffQuery.data.to}`}
              additions={diffQuery.data.additions}
              deletions={diffQuery.data.deletions}
              maxHeight="min-h-0 flex-1"
            />
          )}
        </div>
      )}
      {versionsQuery.isSuccess && latest === 1 && <p className="text-xs text-slate-500">Only one version so far.</p>}
    </section>
  );
}
