import type { ReactNode } from 'react';

/** A list page's title with its main action beside it. */
export function ListPageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      {children}
    </div>
  );
}
