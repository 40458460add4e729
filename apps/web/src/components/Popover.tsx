import { type ReactNode, useEffect, useRef, useState } from 'react';

interface PopoverProps {
  /** What the toggle shows; its text is also the toggle's name. */
  summary: ReactNode;
  summaryClassName?: string;
  /** The toggle's tooltip, for one that shows an icon. */
  summaryTitle?: string;
  /** The disclosure's own box, e.g. to let it take the rest of a row. */
  className?: string;
  /** Where the panel opens; the nearest positioned ancestor places it (the details element is not one). */
  panelClassName: string;
  /** The panel's accessible name. */
  title: string;
  /**
   * Closes on a click elsewhere, Escape or the focus leaving it: a menu or a form of settings. A
   * drawer that stays open while the person works elsewhere (the current extraction) does not.
   */
  dismissable?: boolean;
  /** The panel's content; a function gets a way to close it (after a choice). */
  children: ReactNode | ((close: () => void) => ReactNode);
}

/**
 * A compact control that opens a panel over the content below it: a native disclosure
 * (`<details>`), so that it works with the keyboard and assistive technology as one.
 */
export function Popover({
  summary,
  summaryClassName = '',
  summaryTitle,
  className = '',
  panelClassName,
  title,
  dismissable = true,
  children,
}: PopoverProps) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!open || !dismissable) return;
    const details = ref.current;
    const outside = (target: EventTarget | null) => !(target instanceof Node && details?.contains(target));
    const onPointerDown = (event: PointerEvent) => {
      if (outside(event.target)) setOpen(false);
    };
    const onFocusIn = (event: FocusEvent) => {
      if (outside(event.target)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      // Focus on nothing (the control that had it went away, as a rename's form does) counts as inside.
      if (event.key !== 'Escape' || (outside(event.target) && event.target !== document.body)) return;
      setOpen(false);
      details?.querySelector('summary')?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, dismissable]);

  return (
    <details
      ref={ref}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className={`group/popover ${className}`}
    >
      <summary
        title={summaryTitle}
        className={`flex cursor-pointer list-none items-center gap-1 rounded-md select-none focus-visible:outline-2 focus-visible:outline-slate-500 [&::-webkit-details-marker]:hidden ${summaryClassName}`}
      >
        {summary}
        <svg
          aria-hidden="true"
          viewBox="0 0 12 12"
          className="size-3 shrink-0 transition-transform group-open/popover:rotate-180"
        >
          <path d="M2.5 4.5 6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </summary>
      {open && (
        <div
          role="dialog"
          aria-label={title}
          className={`absolute z-30 overflow-y-auto overscroll-contain rounded-md border border-slate-200 bg-white shadow-lg ${panelClassName}`}
        >
          {typeof children === 'function' ? children(() => setOpen(false)) : children}
        </div>
      )}
    </details>
  );
}
