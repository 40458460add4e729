import { type Citation, type CitationBox, type CitationMatch, MATCH_CONFIDENCE } from './citation.ts';
import type { LeafValue } from './leaf-values.ts';
import { type IndexedPage, type PageWord, pageKeys, pageLabels, pageNormalizedWords, type SearchText } from './page-words.ts';
import { normalizeText, valueKeys } from './value-forms.ts';

/** A run of words on one page: the indices of its first and last word. */
interface Span {
  page: IndexedPage;
  first: number;
  last: number;
  similarity?: number;
}

const FUZZY_MIN_SIMILARITY = 0.8;
/** Values longer than this are not compared word window by word window (a paragraph is found exactly or not). */
const FUZZY_MAX_LENGTH = 200;
const FUZZY_MIN_LENGTH = 4;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Every place `needle` occurs in the pages' `form`, not inside a longer word or number. */
function occurrences(pages: IndexedPage[], form: 'spaced' | 'lower' | 'compact', needle: string): Span[] {
  const spans: Span[] = [];
  if (needle === '') return spans;
  const startsWord = isWordChar(needle[0]);
  const endsWord = isWordChar(needle[needle.length - 1]);
  for (const page of pages) {
    const { text, wordAt }: SearchText = page[form];
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      const end = at + needle.length - 1;
      const before = text[at - 1];
      const after = text[end + 1];
      // In the compact form a word's edge is a boundary even when letters touch across it.
      const wordStart = at === 0 || wordAt[at - 1] !== wordAt[at];
      const wordEnd = end === text.length - 1 || wordAt[end + 1] !== wordAt[end];
      if (startsWord && isWordChar(before) && !(form === 'compact' && wordStart)) continue;
      if (endsWord && isWordChar(after) && !(form === 'compact' && wordEnd)) continue;
      // Not a piece of a longer number: "600" is not in "600.00", nor "50" in "12.50".
      if (isDigit(needle[0]) && /[.,]/.test(before ?? '') && isDigit(text[at - 2])) continue;
      if (isDigit(needle[needle.length - 1]) && /[.,]/.test(after ?? '') && isDigit(text[end + 2])) continue;
      const first = wordAt[at]!;
      const last = wordAt[end]!;
      if (first >= 0 && last >= 0) spans.push({ page, first, last });
    }
  }
  return spans;
}

function keyOccurrences(pages: IndexedPage[], keys: string[]): Span[] {
  const spans: Span[] = [];
  for (const page of pages) {
    const index = pageKeys(page);
    const seen = new Set<string>();
    for (const key of keys) {
      for (const [first, last] of index.get(key) ?? []) {
        // The shortest run that reads as the value: "$4.52", not "$4.52 Shipping:".
        if (seen.has(`${first}`)) continue;
        seen.add(`${first}`);
        spans.push({ page, first, last });
      }
    }
  }
  // Document order, and no run that holds another found at the same place.
  return spans.sort((a, b) => a.page.page - b.page.page || a.first - b.first || a.last - b.last);
}

/** Levenshtein distance, or `max + 1` as soon as it must exceed `max`. */
function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** 1 − distance / the longer length: 1 for equal strings. */
export function similarity(a: string, b: string, atLeast = 0): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  const max = Math.floor((1 - atLeast) * longest);
  const distance = boundedDistance(a, b, max);
  return distance > max ? 0 : 1 - distance / longest;
}

/** Runs of about as many words as the value whose text is at least 0.8 similar to it, the most similar first. */
function fuzzyOccurrences(pages: IndexedPage[], value: string): Span[] {
  if (value.length < FUZZY_MIN_LENGTH || value.length > FUZZY_MAX_LENGTH) return [];
  const count = value.split(' ').length;
  const spans: Span[] = [];
  const maxDifference = Math.floor((1 - FUZZY_MIN_SIMILARITY) * value.length) + 1;
  for (const page of pages) {
    const texts = pageNormalizedWords(page);
    for (let first = 0; first < texts.length; first++) {
      let text = '';
      for (let n = 1; n <= count + 1 && first + n <= texts.length; n++) {
        text = n === 1 ? texts[first]! : `${text} ${texts[first + n - 1]}`;
        if (n < count - 1) continue;
        if (text.length - value.length > maxDifference * 2) break;
        if (Math.abs(text.length - value.length) > maxDifference) continue;
        const s = similarity(value, text, FUZZY_MIN_SIMILARITY);
        if (s >= FUZZY_MIN_SIMILARITY) spans.push({ page, first, last: first + n - 1, similarity: s });
      }
    }
  }
  return spans.sort((a, b) => (b.similarity ?? 0) - (a.similarity ?? 0));
}

/** How far a label word is from a value: labels sit left of or above their values, so those count less. */
function distance(value: PageWord, label: PageWord): number {
  const left = value.x - (label.x + label.width);
  const right = label.x - (value.x + value.width);
  const above = value.y - (label.y + label.height);
  const below = label.y - (value.y + value.height);
  const dx = Math.max(0, left, right * 3);
  const dy = Math.max(0, above, below * 3);
  return Math.hypot(dx, dy);
}

/** Of several places, the one nearest to a word of the field's label on its page; the first when no page has one. */
function nearestToLabel(spans: Span[], label: string[]): Span | undefined {
  if (spans.length <= 1 || label.length === 0) return spans[0];
  let best: Span | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const span of spans) {
    const labels = pageLabels(span.page);
    const start = span.page.words[span.first]!;
    for (const word of label) {
      for (const at of labels.get(word) ?? []) {
        if (at >= span.first && at <= span.last) continue;
        const d = distance(start, span.page.words[at]!);
        if (d < bestDistance) {
          bestDistance = d;
          best = span;
        }
      }
    }
  }
  return best ?? spans[0];
}

/** One box per line of the span's words. */
function boxesOf(span: Span): CitationBox[] {
  const boxes: CitationBox[] = [];
  let line = -1;
  let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
  const flush = () => {
    if (box) boxes.push({ x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 });
  };
  for (let i = span.first; i <= span.last; i++) {
    const w = span.page.words[i]!;
    if (w.line !== line || !box) {
      flush();
      line = w.line;
      box = { x0: w.x, y0: w.y, x1: w.x + w.width, y1: w.y + w.height };
    } else {
      box = {
        x0: Math.min(box.x0, w.x),
        y0: Math.min(box.y0, w.y),
        x1: Math.max(box.x1, w.x + w.width),
        y1: Math.max(box.y1, w.y + w.height),
      };
    }
  }
  flush();
  return boxes;
}

/** The span's words as the page reads. */
function textOf(span: Span): string {
  const { text, wordAt } = span.page.spaced;
  const start = wordAt.indexOf(span.first);
  const end = wordAt.lastIndexOf(span.last);
  return text.slice(start, end + 1);
}

/** An OCR word's own confidence (0–100) lowers the match's: × min(1, mean / 90). */
function ocrFactor(span: Span): number {
  let sum = 0;
  let count = 0;
  for (let i = span.first; i <= span.last; i++) {
    const c = span.page.words[i]!.confidence;
    if (c !== undefined) {
      sum += c;
      count++;
    }
  }
  return count === 0 ? 1 : Math.min(1, sum / count / 90);
}

function cite(path: string, span: Span, match: Exclude<CitationMatch, 'not_found'>): Citation {
  const base =
    match === 'exact'
      ? MATCH_CONFIDENCE.exact
      : match === 'normalized'
        ? MATCH_CONFIDENCE.normalized
        : MATCH_CONFIDENCE.fuzzyLow +
          ((MATCH_CONFIDENCE.fuzzyHigh - MATCH_CONFIDENCE.fuzzyLow) *
            ((span.similarity ?? FUZZY_MIN_SIMILARITY) - FUZZY_MIN_SIMILARITY)) /
            (1 - FUZZY_MIN_SIMILARITY);
  const confidence = Math.round(base * ocrFactor(span) * 1000) / 1000;
  return { path, page: span.page.page, boxes: boxesOf(span), text: textOf(span), match, confidence };
}

export const notFound = (path: string): Citation => ({
  path,
  page: null,
  boxes: [],
  text: '',
  match: 'not_found',
  confidence: MATCH_CONFIDENCE.notFound,
});

/**
 * Where a leaf value is on the pages: its exact words; else the same after normalisation (case,
 * spacing, an amount or a date written otherwise); else words at least 0.8 similar (OCR noise,
 * a typo); else nowhere. A value found in several places is the one nearest to its label.
 */
export function locateLeaf(pages: IndexedPage[], leaf: LeafValue): Citation {
  const raw = typeof leaf.value === 'number' ? String(leaf.value) : leaf.value.replace(/\s+/g, ' ').trim();
  const exact = nearestToLabel(occurrences(pages, 'spaced', raw), leaf.label);
  if (exact) return cite(leaf.path, exact, 'exact');
  const lower = normalizeText(raw);
  const normalized =
    nearestToLabel(occurrences(pages, 'lower', lower), leaf.label) ??
    nearestToLabel(keyOccurrences(pages, valueKeys(leaf.value)), leaf.label) ??
    nearestToLabel(occurrences(pages, 'compact', lower.replace(/\s/g, '')), leaf.label);
  if (normalized) return cite(leaf.path, normalized, 'normalized');
  if (typeof leaf.value === 'string') {
    const fuzzy = fuzzyOccurrences(pages, lower);
    const best = fuzzy[0]?.similarity;
    const fuzzyBest = nearestToLabel(
      fuzzy.filter((s) => s.similarity === best),
      leaf.label,
    );
    if (fuzzyBest) return cite(leaf.path, fuzzyBest, 'fuzzy');
  }
  return notFound(leaf.path);
}
