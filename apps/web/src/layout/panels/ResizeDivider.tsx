import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

const KEY_STEP = 16;
const KEY_BIG_STEP = 64;

interface ResizeDividerProps {
  /** What the divider resizes, e.g. "Resize the agent panel". */
  label: string;
  /** The id of the panel it resizes. */
  controls: string;
  value: number;
  min: number;
  max: number;
  /** +1 when dragging right grows the panel (a panel on the left), -1 when it shrinks it (a panel on the right). */
  direction: 1 | -1;
  onChange: (next: number) => void;
}

/** A vertical divider between two panels: drag it, or focus it and use the arrow keys, Home and End. */
export function ResizeDivider({ label, controls, value, min, max, direction, onChange }: ResizeDividerProps) {
  const drag = useRef<{ startX: number; startValue: number } | null>(null);

  function clamp(next: number): number {
    return Math.round(Math.min(max, Math.max(min, next)));
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { startX: event.clientX, startValue: value };
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (drag.current === null) return;
    onChange(clamp(drag.current.startValue + direction * (event.clientX - drag.current.startX)));
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? KEY_BIG_STEP : KEY_STEP;
    let next: number | null = null;
    if (event.key === 'ArrowLeft') next = value - direction * step;
    else if (event.key === 'ArrowRight') next = value + direction * step;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    onChange(clamp(next));
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: an <hr> cannot be focused and dragged; a focusable separator is the ARIA pattern for a splitter.
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      className="group relative w-2 shrink-0 cursor-col-resize touch-none select-none focus-visible:outline-none"
    >
      <div className="absolute inset-y-0 left-1/2 w-px -translate-x-1/2 bg-slate-200 group-hover:w-1 group-hover:bg-slate-400 group-focus-visible:w-1 group-focus-visible:bg-slate-500" />
    </div>
  );
}
