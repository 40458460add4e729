import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Browsers stop growing an element somewhere past 17 million pixels (Firefox) or 33 million
 * (Chromium): a million rows of 28 px would not fit. Past this height the scrollbar's range is
 * mapped onto the rows, each pixel scrolled moving the rows a little more than a pixel.
 */
const MAX_SPACER_PX = 15_000_000;

/** Rows rendered beyond each edge of the window, so that a fast scroll does not show blank strips. */
const OVERSCAN = 8;

export interface VirtualRows {
  /** The spacer's height: the scroll range the rows get. */
  spacerHeight: number;
  /** The rows to render: from `start` (inclusive) to `end` (exclusive). */
  start: number;
  end: number;
  /** Where, inside the spacer, the block of rendered rows starts. */
  blockTop: number;
  /** The rows actually in the window (without the overscan), for saying where the person is. */
  firstVisible: number;
  lastVisible: number;
}

/** Scroll position and height of the scroll container, kept up to date. */
function useScrollBox(ref: RefObject<HTMLElement | null>) {
  const [box, setBox] = useState({ scrollTop: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () =>
      setBox((current) =>
        current.scrollTop === element.scrollTop && current.height === element.clientHeight
          ? current
          : { scrollTop: element.scrollTop, height: element.clientHeight },
      );
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [ref]);
  return box;
}

/**
 * Which of `rowCount` rows of `rowHeight` pixels are in view in the scroll container, below a
 * sticky header of `headerHeight`: only those (and a few more) are rendered, in a block placed
 * where they belong inside a spacer as tall as all the rows.
 */
export function useVirtualRows(
  ref: RefObject<HTMLElement | null>,
  rowCount: number,
  rowHeight: number,
  headerHeight: number,
): VirtualRows {
  const { scrollTop, height } = useScrollBox(ref);
  const rowsHeight = rowCount * rowHeight;
  const spacerHeight = Math.min(rowsHeight, MAX_SPACER_PX);
  const viewHeight = Math.max(0, height - headerHeight);
  const scrollRange = spacerHeight - viewHeight;
  const rowsRange = rowsHeight - viewHeight;
  const ratio = scrollRange > 0 && rowsRange > scrollRange ? rowsRange / scrollRange : 1;
  // The rows' own offset at this scroll position; equal to scrollTop until the rows outgrow the spacer.
  const rowsTop = Math.min(Math.max(0, scrollTop * ratio), Math.max(0, rowsRange));
  const firstVisible = Math.min(rowCount, Math.floor(rowsTop / rowHeight));
  const lastVisible = Math.min(rowCount, Math.ceil((rowsTop + viewHeight) / rowHeight));
  const start = Math.max(0, firstVisible - OVERSCAN);
  const end = Math.min(rowCount, lastVisible + OVERSCAN);
  return { spacerHeight, start, end, blockTop: scrollTop - rowsTop + start * rowHeight, firstVisible, lastVisible };
}
