import { type CSSProperties, type RefObject, useLayoutEffect, useState } from 'react';

/** Space kept between the workspace and the window's edges (and the app's header). */
const GUTTER = 12;
/** Below this the workspace is not squeezed further; the page scrolls instead. */
const MIN_HEIGHT = 420;

interface Box {
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  width: number;
  height: number;
}

const sameBox = (a: Box, b: Box) =>
  a.marginTop === b.marginTop &&
  a.marginBottom === b.marginBottom &&
  a.marginLeft === b.marginLeft &&
  a.width === b.width &&
  a.height === b.height;

/**
 * Stretches the element over the page's whole area: out of the centered page column and its
 * padding, from just below the app's header down to the window's bottom edge, so that what is in
 * it scrolls on its own and the page itself does not. It must be the page's only content; it is
 * placed from the `<main>` element's box (which its own margins do not move), re-measured when the
 * window or the header changes size.
 */
export function useViewportFill(ref: RefObject<HTMLElement | null>): CSSProperties {
  const [box, setBox] = useState<Box | null>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    const main = element?.closest('main');
    if (!element || !main) return;

    function measure() {
      if (!element || !main) return;
      const mainRect = main.getBoundingClientRect();
      const style = getComputedStyle(main);
      const padding = (side: 'Top' | 'Bottom' | 'Left') => Number.parseFloat(style[`padding${side}`]) || 0;
      const viewportWidth = document.documentElement.clientWidth;
      const top = mainRect.top + window.scrollY + GUTTER;
      const next: Box = {
        marginTop: Math.round(GUTTER - padding('Top')),
        marginBottom: Math.round(GUTTER - padding('Bottom')),
        marginLeft: Math.round(GUTTER - (mainRect.left + window.scrollX + padding('Left'))),
        width: Math.max(0, viewportWidth - 2 * GUTTER),
        height: Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - GUTTER)),
      };
      setBox((current) => (current && sameBox(current, next) ? current : next));
    }

    measure();
    // The header wrapping (a narrow window, a long organization name) moves <main> down.
    const observer = new ResizeObserver(measure);
    observer.observe(main);
    observer.observe(document.body);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);

  return box ?? { height: MIN_HEIGHT };
}
