import { type ReactNode, useRef } from 'react';
import { useViewportFill } from './useViewportFill';

/**
 * A page where people work rather than read: a compact header over a body that takes the rest of
 * the window, so that its panels scroll on their own and the page itself never does.
 */
export function Workspace({ header, children }: { header: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const style = useViewportFill(ref);
  return (
    <div ref={ref} style={style} className="flex flex-col gap-2">
      <div className="shrink-0">{header}</div>
      <div className="min-h-0 flex-1">{children}</div>
    </div>
  );
}
