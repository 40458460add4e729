import { TextExtractionError } from './types.ts';

/**
 * Reads the XHTML that `pdftotext -bbox` prints, as it arrives: per page its size and its
 * words with boxes. Not an XML parser, on purpose: poppler writes a word's characters as
 * they are (control characters included, which a conforming XML parser must refuse) and
 * escapes only & ' " < >, so a literal `<` or `>` is always markup and the text between
 * them is always text. That makes splitting at them exact for this one producer.
 */

export interface BboxWord {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

export interface BboxPage {
  width: number;
  height: number;
  words: BboxWord[];
}

/** A word (or a tag) longer than this is no text a person wrote; it would only fill memory. */
const MAX_TOKEN_CHARACTERS = 1_000_000;

const ENTITIES: Record<string, string> = { amp: '&', apos: "'", quot: '"', lt: '<', gt: '>' };

const decodeEntities = (text: string) =>
  text.includes('&') ? text.replace(/&(amp|apos|quot|lt|gt);/g, (_, name: string) => ENTITIES[name]!) : text;

/** How poppler prints a word's tag; matched whole, it spares a map of attributes per word. */
const WORD_TAG = /^word xMin="([^"]*)" yMin="([^"]*)" xMax="([^"]*)" yMax="([^"]*)"$/;

function attributes(tag: string): Map<string, string> {
  return new Map(Array.from(tag.matchAll(/(\w+)="([^"]*)"/g), ([, name, value]) => [name!, value!]));
}

function numberAttribute(attrs: Map<string, string>, name: string, tag: string): number {
  const value = Number(attrs.get(name));
  if (!Number.isFinite(value))
    throw new Error(`pdftotext printed <${tag}> without a numeric ${name}; is it poppler's pdftotext?`);
  return value;
}

export class PdftotextBboxReader {
  private pending = '';
  private page: BboxPage | undefined;
  private word: Omit<BboxWord, 'text'> | undefined;
  private wordText = '';
  private readonly onPage: (page: BboxPage) => void;

  /** `onPage` gets each page as soon as its end is read. */
  constructor(onPage: (page: BboxPage) => void) {
    this.onPage = onPage;
  }

  /** The next piece of output; a tag or text cut in two waits for its rest. */
  push(chunk: string): void {
    this.pending += chunk;
    let at = 0;
    for (;;) {
      const open = this.pending.indexOf('<', at);
      if (open === -1) break;
      const close = this.pending.indexOf('>', open);
      if (close === -1) break;
      if (this.word) this.wordText += this.pending.slice(at, open);
      this.tag(this.pending.slice(open + 1, close));
      at = close + 1;
    }
    this.pending = this.pending.slice(at);
    if (this.pending.length > MAX_TOKEN_CHARACTERS) {
      throw new TextExtractionError(
        'too_large',
        `The PDF holds a word of more than ${MAX_TOKEN_CHARACTERS} characters; upload a valid copy (for example print it to a new PDF).`,
      );
    }
  }

  /** The output has ended: every page it began must have ended too. */
  end(): void {
    if (this.page || this.word) throw new Error('pdftotext output ended inside a page; it may have been cut short');
  }

  private tag(tag: string): void {
    if (tag === '/word' && this.word) {
      const text = decodeEntities(this.wordText);
      if (text.trim() !== '') this.page?.words.push({ text, ...this.word });
      this.word = undefined;
    } else if (tag === '/page' && this.page) {
      this.onPage(this.page);
      this.page = undefined;
    } else if (tag.startsWith('word ') && this.page) {
      const usual = WORD_TAG.exec(tag);
      const box4 = usual ? usual.slice(1).map(Number) : undefined;
      if (box4?.every(Number.isFinite)) {
        const [xMin, yMin, xMax, yMax] = box4 as [number, number, number, number];
        this.word = { xMin, yMin, xMax, yMax };
        this.wordText = '';
        return;
      }
      const attrs = attributes(tag);
      const box = (name: string) => numberAttribute(attrs, name, 'word');
      this.word = { xMin: box('xMin'), yMin: box('yMin'), xMax: box('xMax'), yMax: box('yMax') };
      this.wordText = '';
    } else if (tag.startsWith('page ')) {
      const attrs = attributes(tag);
      this.page = {
        width: numberAttribute(attrs, 'width', 'page'),
        height: numberAttribute(attrs, 'height', 'page'),
        words: [],
      };
    }
  }
}
