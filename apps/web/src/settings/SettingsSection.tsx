import { type ReactNode, useId } from 'react';

interface SettingsSectionProps {
  title: string;
  description: ReactNode;
  /** Beside the title, e.g. a month picker. */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of one section of Settings: its title (the region's name), what it is for, then its content. */
export function SettingsSection({ title, description, actions, children }: SettingsSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 px-6 py-4">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{description}</p>
        </div>
        {actions && <div className="flex items-center gap-2">{actions}</div>}
      </div>
      <div className="space-y-5 px-6 py-5">{children}</div>
    </section>
  );
}
