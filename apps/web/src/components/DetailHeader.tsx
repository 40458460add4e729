import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface DetailHeaderProps {
  backTo: string;
  backLabel: string;
  title: string;
  /** The current version, for what is versioned. */
  version?: number;
  /** Buttons shown beside the title. */
  children?: ReactNode;
}

/** The top of a page about one thing: the way back to its list, its name, its version, what can be done to it. */
export function DetailHeader({ backTo, backLabel, title, version, children }: DetailHeaderProps) {
  return (
    <div className="space-y-4">
      <Link to={backTo} className="text-sm text-slate-600 hover:text-slate-900">
        ← {backLabel}
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-wrap items-baseline gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-slate-900">{title}</h1>
          {version !== undefined && (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700">version {version}</span>
          )}
        </div>
        {children && <div className="flex gap-2">{children}</div>}
      </div>
    </div>
  );
}
