import type { PageText, PositionedText } from '../text/types.ts';
import { normalizeText, valueKeys, wordKey } from './value-forms.ts';

/** A word on a page with its box; `line` counts the page's lines from 0. */
export interface PageWord extends PositionedText {
  line: number;
}

/** A page's words and the strings values are searched in, each with the word every character came from. */
export interface IndexedPage {
  page: number;
  words: PageWord[];
  /** The words as they read: a space between words apart on a line and between lines, none inside a word split in runs. */
  spaced: SearchText;
  /** The same in lower case (normalizeText of each word). */
  lower: SearchText;
  /** Lower case without any space: a value whose spaces differ from the page's. */
  compact: SearchText;
  /** Built when first asked: amount and date keys of runs of 1 to 4 words on one line. */
  keys?: Map<string, Array<[number, number]>>;
  /** Built when first asked: each word's letters and digits → the words spelled so. */
  labels?: Map<string, number[]>;
  /** Built when first asked: each word in lower case (normalizeText), for the fuzzy search. */
  normalized?: string[];
}

export interface SearchText {
  text: string;
  /** For each character, the index of its word; -1 for the spaces put between words. */
  wordAt: Int32Array;
}

/** The most words a run read as one amount or date can have ("15 November 2012", "1 234,50 EUR"). */
const MAX_KEY_WORDS = 4;

/**
 * A page's items as words: OCR and pdftotext items are words already; a pdf.js run holding
 * spaces is cut at them, each word getting the share of the run's width its characters have.
 * `spaceBefore` says whether a space certainly separates a word from the one before it.
 */
function splitItems(items: PositionedText[]): Array<PositionedText & { spaceBefore: boolean }> {
  const words: Array<PositionedText & { spaceBefore: boolean }> = [];
  let spaceAfterPrevious = false;
  for (const item of items) {
    const text = item.text;
    if (text.trim() === '') {
      spaceAfterPrevious = true;
      continue;
    }
    const parts = [...text.matchAll(/\S+/g)];
    const length = text.length;
    parts.forEach((part, i) => {
      const start = part.index ?? 0;
      const one = parts.length === 1 && start === 0 && part[0].length === length;
      words.push({
        text: part[0],
        x: one ? item.x : item.x + (item.width * start) / length,
        y: item.y,
        width: one ? item.width : (item.width * part[0].length) / length,
        height: item.height,
        ...(item.confidence === undefined ? {} : { confidence: item.confidence }),
        spaceBefore: i > 0 || start > 0 || spaceAfterPrevious,
      });
    });
    spaceAfterPrevious = /\s$/.test(text);
  }
  return words;
}

const sameLine = (a: PositionedText, b: PositionedText): boolean =>
  Math.abs(a.y + a.height / 2 - (b.y + b.height / 2)) < Math.min(a.height, b.height) / 2;

function searchText(words: PageWord[], glue: boolean[], form: (w: string) => string, spaces: boolean): SearchText {
  const parts: string[] = [];
  const owners: number[] = [];
  words.forEach((word, i) => {
    if (i > 0 && spaces && !glue[i]) {
      parts.push(' ');
      owners.push(-1);
    }
    const text = form(word.text);
    parts.push(text);
    for (let c = 0; c < text.length; c++) owners.push(i);
  });
  return { text: parts.join(''), wordAt: Int32Array.from(owners) };
}

/** The words of a page in reading order (the order the text engine gives), with the strings to search. */
export function indexPage(page: PageText): IndexedPage {
  const split = splitItems(page.items);
  const words: PageWord[] = [];
  const glue: boolean[] = [];
  let line = 0;
  split.forEach(({ spaceBefore, ...word }, i) => {
    const previous = split[i - 1];
    const onLine = previous !== undefined && sameLine(previous, word);
    if (previous !== undefined && !onLine) line++;
    const size = previous ? Math.min(previous.height, word.height) : word.height;
    const gap = previous ? word.x - (previous.x + previous.width) : 0;
    // Pieces of one word drawn as separate runs touch; words have a space between them.
    glue.push(previous !== undefined && onLine && !spaceBefore && gap < 0.15 * size && gap > -0.3 * size);
    words.push({ ...word, line });
  });
  return {
    page: page.page,
    words,
    spaced: searchText(words, glue, (w) => w, true),
    lower: searchText(words, glue, normalizeText, true),
    compact: searchText(words, glue, (w) => normalizeText(w).replace(/\s/g, ''), false),
  };
}

/** Amount and date keys of the page's runs of words (see value-forms.ts), built once. */
export function pageKeys(page: IndexedPage): Map<string, Array<[number, number]>> {
  if (page.keys) return page.keys;
  const keys = new Map<string, Array<[number, number]>>();
  const { words } = page;
  for (let first = 0; first < words.length; first++) {
    // Only runs that start with a digit, a sign, a currency or a month name can be one.
    if (!/^[\p{N}\p{Sc}\-+−(A-Za-z]/u.test(words[first]!.text)) continue;
    let text = '';
    for (let last = first; last < words.length && last < first + MAX_KEY_WORDS; last++) {
      if (words[last]!.line !== words[first]!.line) break;
      text = last === first ? words[last]!.text : `${text} ${words[last]!.text}`;
      if (!/\d/.test(text)) continue;
      for (const key of valueKeys(text.replace(/[:;]$/, ''))) {
        const spans = keys.get(key) ?? [];
        spans.push([first, last]);
        keys.set(key, spans);
      }
    }
  }
  page.keys = keys;
  return keys;
}

/** Where each spelling of a word (letters and digits, lower case) is on the page, built once. */
export function pageLabels(page: IndexedPage): Map<string, number[]> {
  if (page.labels) return page.labels;
  const labels = new Map<string, number[]>();
  page.words.forEach((word, i) => {
    const key = wordKey(word.text);
    if (key === '') return;
    const at = labels.get(key) ?? [];
    at.push(i);
    labels.set(key, at);
  });
  page.labels = labels;
  return labels;
}

/** The page's words in lower case (normalizeText), built once. */
export function pageNormalizedWords(page: IndexedPage): string[] {
  page.normalized ??= page.words.map((w) => normalizeText(w.text));
  return page.normalized;
}
