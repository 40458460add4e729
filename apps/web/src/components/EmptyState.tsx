import type { ReactNode } from 'react';

interface EmptyStateProps {
  title: string;
  description: string;
  children?: ReactNode;
  /** Inside a section rather than filling a page. */
  compact?: boolean;
}

export function EmptyState({ title, description, children, compact = false }: EmptyStateProps) {
  return (
    <div className={`rounded-lg border border-dashed border-slate-300 bg-white px-6 text-center ${compact ? 'py-5' : 'py-14'}`}>
      <p className="text-base font-semibold text-slate-900">{title}</p>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">{description}</p>
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}
