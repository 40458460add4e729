import { useId } from 'react';
import { Link } from 'react-router';
import { versionPath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';

export interface VersionEntry {
  version: number;
  created_at: string;
  created_by: string;
}

interface VersionListProps {
  /** Newest first; the first is the current version, which the page edits. */
  versions: VersionEntry[];
  /** The version on screen. */
  shownVersion: number;
  /** The page of the schema or prompt; older versions add ?version=N to it. */
  pagePath: string;
}

/** Every saved version, each a link to it: the current one opens the editor, older ones open read-only. */
export function VersionList({ versions, shownVersion, pagePath }: VersionListProps) {
  const headingId = useId();
  const latest = versions[0]?.version;
  return (
    <nav aria-labelledby={headingId} className="overflow-hidden rounded-lg border border-slate-200 bg-white">
      <h2 id={headingId} className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900">
        Versions
      </h2>
      <ol className="divide-y divide-slate-100 text-sm">
        {versions.map((entry) => {
          const isShown = entry.version === shownVersion;
          return (
            <li key={entry.version} className={`px-4 py-2.5 ${isShown ? 'bg-slate-50' : ''}`}>
              <Link
                to={entry.version === latest ? pagePath : versionPath(pagePath, entry.version)}
                aria-current={isShown ? 'page' : undefined}
                className="font-medium text-slate-900 underline-offset-2 hover:underline aria-[current=page]:no-underline"
              >
                Version {entry.version}
              </Link>
              {entry.version === latest && <span className="ml-2 text-xs text-emerald-700">current</span>}
              <p className="text-xs text-slate-500">
                <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time> by {entry.created_by}
              </p>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
