import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundsOf, boxToCss, imageScale, joinLineRects, revealScroll } from '../src/citations/boxGeometry.ts';

test('PDF points become CSS pixels at the page scale', () => {
  // A word 100 pt from the left, 50 pt down, drawn at 150 %.
  assert.deepEqual(boxToCss({ x: 100, y: 50, width: 40, height: 10 }, 1.5), { left: 150, top: 75, width: 60, height: 15 });
  // At 100 % a point is a CSS pixel.
  assert.deepEqual(boxToCss({ x: 72, y: 720, width: 36, height: 12 }, 1), { left: 72, top: 720, width: 36, height: 12 });
  // The fitted scale of a Letter page (612 pt) in a 950 px wide area (32 px of margin).
  const fit = (950 - 32) / 612;
  const rect = boxToCss({ x: 306, y: 396, width: 61.2, height: 10 }, fit);
  assert.equal(rect.left, 459);
  assert.ok(Math.abs(rect.width - 91.8) < 1e-9);
});

test('a padded box grows on every side around the same centre', () => {
  const rect = boxToCss({ x: 10, y: 20, width: 30, height: 8 }, 2, 3);
  assert.deepEqual(rect, { left: 17, top: 37, width: 66, height: 22 });
  assert.equal(rect.left + rect.width / 2, (10 + 15) * 2);
});

test('image pixels become displayed pixels by displayed over natural width', () => {
  const scale = imageScale(2000, 800);
  assert.equal(scale, 0.4);
  assert.deepEqual(boxToCss({ x: 1000, y: 500, width: 250, height: 50 }, scale ?? 0), {
    left: 400,
    top: 200,
    width: 100,
    height: 20,
  });
  // Zoomed in to twice the natural size.
  assert.equal(imageScale(640, 1280), 2);
  // Not loaded or not laid out yet: no scale.
  assert.equal(imageScale(0, 800), null);
  assert.equal(imageScale(2000, 0), null);
});

test('the bounds of several boxes, as a value spread over two lines', () => {
  const rects = [
    { left: 100, top: 200, width: 50, height: 12 },
    { left: 20, top: 214, width: 40, height: 12 },
  ];
  assert.deepEqual(boundsOf(rects), { left: 20, top: 200, width: 130, height: 26 });
  assert.equal(boundsOf([]), null);
});

test('boxes in sight are not scrolled to; boxes out of sight are brought a third of the way down', () => {
  const view = { left: 0, top: 100, width: 800, height: 600 };
  assert.deepEqual(revealScroll(view, { left: 50, top: 300, width: 100, height: 20 }), { top: 0, left: 0 });
  // Below the visible part: scrolled down so that it lands 200 px (a third) below the top.
  assert.deepEqual(revealScroll(view, { left: 50, top: 1000, width: 100, height: 20 }), { top: 700, left: 0 });
  // Above it: scrolled up.
  assert.deepEqual(revealScroll(view, { left: 50, top: 40, width: 100, height: 20 }), { top: -260, left: 0 });
  // Off to the right (a zoomed page): scrolled sideways too, to near the left edge.
  assert.deepEqual(revealScroll(view, { left: 900, top: 300, width: 100, height: 20 }), { top: 0, left: 876 });
});

test('the words of a line are marked as one; another line, or a word far off, stays apart', () => {
  const word = (left: number, top: number, width: number) => ({ left, top, width, height: 14 });
  // "Nov 15 2012": three words a space apart.
  assert.deepEqual(joinLineRects([word(705, 340, 30), word(739, 340, 14), word(757, 340, 40)], 8), [word(705, 340, 92)]);
  // A value over two lines: one mark per line, in reading order whatever order the boxes came in.
  assert.deepEqual(joinLineRects([word(20, 214, 40), word(100, 200, 50), word(154, 200, 30)], 8), [
    word(100, 200, 84),
    word(20, 214, 40),
  ]);
  // Two words of a line in columns far apart.
  assert.deepEqual(joinLineRects([word(10, 50, 20), word(300, 50, 20)], 8), [word(10, 50, 20), word(300, 50, 20)]);
  assert.deepEqual(joinLineRects([], 8), []);
});
