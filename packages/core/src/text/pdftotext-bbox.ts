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

/**
 * How poppler prints a word, tags and text at once: matched whole where it starts (most of the
 * output), it spares a map of attributes and the text's own pass. Anything else goes tag by tag.
 */
const WHOLE_WORD = /<word xMin="([^"]*)" yMin="([^"]*)" xMax="([^"]*)" yMax="([^"]*)">([^<]*)<\/word>/y;

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
      if (!this.word && this.page && this.wholeWord(open)) {
        at = WHOLE_WORD.lastIndex;
        continue;
      }
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

  /** A whole word starting at `open`, added to the page; false when what starts there is not one. */
  private wholeWord(open: number): boolean {
    WHOLE_WORD.lastIndex = open;
    const match = WHOLE_WORD.exec(this.pending);
    if (!match) return false;
    const xMin = Number(match[1]);
    const yMin = Number(match[2]);
    const xMax = Number(match[3]);
    const yMax = Number(match[4]);
    if (!(Number.isFinite(xMin) && Number.isFinite(yMin) && Number.isFinite(xMax) && Number.isFinite(yMax))) return false;
    this.addWord(match[5]!, xMin, yMin, xMax, yMax);
    return true;
  }

  private addWord(raw: string, xMin: number, yMin: number, xMax: number, yMax: number): void {
    const text = decodeEntities(raw);
    if (text.trim() !== '') this.page?.words.push({ text, xMin, yMin, xMax, yMax });
  }

  private tag(tag: string): void {
    if (tag === '/word' && this.word) {
      const { xMin, yMin, xMax, yMax } = this.word;
      this.addWord(this.wordText, xMin, yMin, xMax, yMax);
      this.word = undefined;
    } else if (tag === '/page' && this.page) {
      this.onPage(this.page);
      this.page = undefined;
    } else if (tag.startsWith('word ') && this.page) {
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
