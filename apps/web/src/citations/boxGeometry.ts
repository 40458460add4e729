/**
 * From a citation's boxes to the pixels they cover on screen. PDF boxes are in points from the
 * page's top-left corner and the page is drawn at `scale` CSS pixels per point; image boxes are in
 * the image's own pixels and the image is drawn at its displayed width over its natural width.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A rectangle in CSS pixels, from the drawn page's top-left corner (as `style` takes it). */
export interface CssRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A box at `scale` CSS pixels per unit, grown by `padding` pixels on every side so that the words show inside it. */
export function boxToCss(box: Box, scale: number, padding = 0): CssRect {
  return {
    left: box.x * scale - padding,
    top: box.y * scale - padding,
    width: box.width * scale + 2 * padding,
    height: box.height * scale + 2 * padding,
  };
}

/** CSS pixels per image pixel for an image of `naturalWidth` pixels shown `displayedWidth` pixels wide. */
export function imageScale(naturalWidth: number, displayedWidth: number): number | null {
  return naturalWidth > 0 && displayedWidth > 0 ? displayedWidth / naturalWidth : null;
}

/** The smallest rectangle around all of them; null for none. */
export function boundsOf(rects: CssRect[]): CssRect | null {
  if (rects.length === 0) return null;
  const left = Math.min(...rects.map((rect) => rect.left));
  const top = Math.min(...rects.map((rect) => rect.top));
  const right = Math.max(...rects.map((rect) => rect.left + rect.width));
  const bottom = Math.max(...rects.map((rect) => rect.top + rect.height));
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * The words of one line as one rectangle: rectangles that overlap vertically by half their height
 * and are at most `gap` pixels apart side by side are joined ("Nov 15 2012" is one mark, not three).
 */
export function joinLineRects(rects: CssRect[], gap: number): CssRect[] {
  const sorted = [...rects].sort((a, b) => a.top - b.top || a.left - b.left);
  const joined: CssRect[] = [];
  for (const rect of sorted) {
    const last = joined.at(-1);
    const overlap = last ? Math.min(last.top + last.height, rect.top + rect.height) - Math.max(last.top, rect.top) : 0;
    const sameLine = last !== undefined && overlap >= Math.min(last.height, rect.height) / 2;
    if (last && sameLine && rect.left - (last.left + last.width) <= gap && rect.left >= last.left) {
      joined[joined.length - 1] = boundsOf([last, rect]) ?? last;
    } else {
      joined.push(rect);
    }
  }
  return joined;
}

/** Room kept between a revealed target and the edge of the scrolling area, in CSS pixels. */
const REVEAL_MARGIN = 24;

/**
 * How far to scroll an area (its visible rectangle `view`) so that `target` (in the same
 * coordinates) is in sight: nothing when it already is; otherwise the target a third of the way
 * down and, when it is off to a side, near the left edge.
 */
export function revealScroll(view: CssRect, target: CssRect): { top: number; left: number } {
  const fitsVertically = target.top >= view.top && target.top + target.height <= view.top + view.height;
  const fitsHorizontally = target.left >= view.left && target.left + target.width <= view.left + view.width;
  return {
    top: fitsVertically ? 0 : target.top - view.top - view.height / 3,
    left: fitsHorizontally ? 0 : target.left - view.left - REVEAL_MARGIN,
  };
}
