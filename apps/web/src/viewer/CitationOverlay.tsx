import { type RefObject, useEffect, useRef } from 'react';
import type { ActiveCitation } from '../citations/activeCitation';
import { boundsOf, boxToCss, joinLineRects, revealScroll } from '../citations/boxGeometry.ts';
import { focusCitedField } from '../citations/focusField';

/** Room drawn around the words of a box, in CSS pixels. */
const BOX_PADDING = 2;
/** Words closer than this (a space at most, in CSS pixels, once padded) are marked as one. */
const WORD_GAP = 8;

interface CitationOverlayProps {
  active: ActiveCitation;
  /** CSS pixels per unit of the citation's boxes: the page's scale for a PDF, displayed over natural width for an image. */
  scale: number;
  /** The viewer's scrolling area, scrolled to bring the boxes into sight. */
  scrollArea: RefObject<HTMLElement | null>;
}

/**
 * The active citation's boxes over the drawn page (inside the page's positioned wrapper). A click on
 * a box focuses its field in the Extraction panel; the rest of the page stays selectable.
 */
export function CitationOverlay({ active, scale, scrollArea }: CitationOverlayProps) {
  const layerRef = useRef<HTMLElement>(null);
  const { path, boxes } = active.citation;
  const rects = joinLineRects(
    boxes.map((box) => boxToCss(box, scale, BOX_PADDING)),
    WORD_GAP,
  );

  // A new citation, or the page drawn at a new size: bring the boxes into sight if they are not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the boxes are read from the layer; they move with these.
  useEffect(() => {
    const area = scrollArea.current;
    const layer = layerRef.current;
    const bounds = boundsOf(rects);
    if (!area || !layer || !bounds) return;
    const view = area.getBoundingClientRect();
    const page = layer.getBoundingClientRect();
    const target = { ...bounds, left: page.left + bounds.left, top: page.top + bounds.top };
    const { top, left } = revealScroll(
      { left: view.left, top: view.top, width: area.clientWidth, height: area.clientHeight },
      target,
    );
    if (top !== 0 || left !== 0) area.scrollBy({ top, left, behavior: 'smooth' });
  }, [active, scale]);

  return (
    <section ref={layerRef} aria-label="Citation highlight" className="pointer-events-none absolute inset-0 z-10">
      {rects.map((rect) => (
        <button
          key={`${rect.left}:${rect.top}:${rect.width}`}
          type="button"
          aria-label={`Go to the field ${path}`}
          title={`${path}: ${active.citation.text}`}
          onClick={() => focusCitedField(active.source, path)}
          className="pointer-events-auto absolute cursor-pointer rounded-sm bg-amber-400/25 ring-2 ring-amber-500 hover:bg-amber-400/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-600"
          style={rect}
        />
      ))}
    </section>
  );
}
