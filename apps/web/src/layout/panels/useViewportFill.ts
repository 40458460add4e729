import { type CSSProperties, type RefObject, useLayoutEffect, useState } from 'react';

/** Space kept between the panels and the window's edges. */
const GUTTER = 12;
/** Below this the panels are not squeezed further; the page scrolls instead. */
const MIN_HEIGHT = 420;

interface ViewportBox {
  style: CSSProperties;
  width: number;
}

/**
 * Stretches the element to the window's width (out of the centered page column) and down to the window's
 * bottom edge, so that its panels scroll on their own and the page itself does not. Re-measured when the
 * window or the content above it changes size.
 */
export function useViewportFill(ref: RefObject<HTMLElement | null>): ViewportBox {
  const [box, setBox] = useState<{ marginLeft: number; marginBottom: number; width: number; height: number } | null>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    const parent = element?.parentElement;
    if (!element || !parent) return;

    function measure() {
      if (!element || !parent) return;
      const parentRect = parent.getBoundingClientRect();
      const rect = element.getBoundingClientRect();
      const viewportWidth = document.documentElement.clientWidth;
      const top = rect.top + window.scrollY;
      // The page column's own bottom padding is taken back so that the panels end at the window's edge.
      const main = element.closest('main');
      const bottomPadding = main ? Number.parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0;
      const next = {
        marginLeft: Math.round(GUTTER - (parentRect.left + window.scrollX)),
        marginBottom: Math.round(GUTTER - bottomPadding),
        width: Math.max(0, viewportWidth - 2 * GUTTER),
        height: Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - GUTTER)),
      };
      setBox((current) =>
        current &&
        current.marginLeft === next.marginLeft &&
        current.marginBottom === next.marginBottom &&
        current.width === next.width &&
        current.height === next.height
          ? current
          : next,
      );
    }

    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(parent);
    // Anything else moving the panels down (the app's header wrapping, a notice above) changes the body's size.
    observer.observe(document.body);
    for (const sibling of Array.from(parent.children)) {
      if (sibling !== element) observer.observe(sibling);
    }
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);

  if (box === null) {
    return { style: { height: MIN_HEIGHT }, width: 0 };
  }
  return {
    style: { marginLeft: box.marginLeft, marginBottom: box.marginBottom, width: box.width, height: box.height },
    width: box.width,
  };
}
