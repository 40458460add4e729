import type { ReactNode } from 'react';

export type StatusTone = 'neutral' | 'working' | 'review' | 'success' | 'failure';

const toneClasses: Record<StatusTone, string> = {
  neutral: 'bg-slate-100 text-slate-700',
  working: 'bg-sky-50 text-sky-800',
  review: 'bg-amber-50 text-amber-800',
  success: 'bg-emerald-50 text-emerald-700',
  failure: 'bg-red-50 text-red-700',
};

/** A status in a coloured pill; work under way pulses. */
export function StatusPill({ tone, title, children }: { tone: StatusTone; title?: string; children: ReactNode }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${toneClasses[tone]}`}
    >
      {tone === 'working' && <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />}
      {children}
    </span>
  );
}
