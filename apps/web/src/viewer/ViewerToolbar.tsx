import type { ReactNode } from 'react';

export type Zoom = 'fit' | number;

export const MIN_SCALE = 0.25;
export const MAX_SCALE = 4;
const ZOOM_STEP = 1.25;

export function zoomedIn(scale: number): number {
  return Math.min(MAX_SCALE, Math.round(scale * ZOOM_STEP * 100) / 100);
}

export function zoomedOut(scale: number): number {
  return Math.max(MIN_SCALE, Math.round((scale / ZOOM_STEP) * 100) / 100);
}

const buttonClass =
  'inline-flex h-7 min-w-7 items-center justify-center rounded-md border border-slate-300 bg-white px-2 text-sm font-medium text-slate-800 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-500';

export function ToolbarButton({
  label,
  onClick,
  disabled,
  pressed,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={`${buttonClass} ${pressed ? 'bg-slate-200' : ''}`}
    >
      {children}
    </button>
  );
}

/** Fit width, zoom out, the zoom level, zoom in. */
export function ZoomControls({ zoom, scale, onZoom }: { zoom: Zoom; scale: number | null; onZoom: (next: Zoom) => void }) {
  const current = scale ?? 1;
  return (
    <div className="flex items-center gap-1">
      <ToolbarButton label="Fit width" pressed={zoom === 'fit'} onClick={() => onZoom('fit')}>
        Fit
      </ToolbarButton>
      <ToolbarButton
        label="Zoom out"
        disabled={scale === null || current <= MIN_SCALE}
        onClick={() => onZoom(zoomedOut(current))}
      >
        −
      </ToolbarButton>
      <output aria-label="Zoom level" className="w-11 text-center text-xs text-slate-600 tabular-nums">
        {scale === null ? '—' : `${Math.round(current * 100)}%`}
      </output>
      <ToolbarButton label="Zoom in" disabled={scale === null || current >= MAX_SCALE} onClick={() => onZoom(zoomedIn(current))}>
        +
      </ToolbarButton>
    </div>
  );
}

/** The bar above the document: what the page puts first (the Document | Text switch), then the viewer's controls. */
export function ViewerToolbar({ start, children }: { start?: ReactNode; children?: ReactNode }) {
  return (
    <div
      role="toolbar"
      aria-label="Document viewer"
      className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-2 border-b border-slate-200 bg-slate-50 px-3 py-2"
    >
      {start}
      <div className="ml-auto flex flex-wrap items-center gap-x-3 gap-y-2">{children}</div>
    </div>
  );
}
