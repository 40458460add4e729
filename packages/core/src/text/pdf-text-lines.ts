import type { PositionedText } from './types.ts';

/**
 * A page's text from positioned runs, whichever engine read them: the same line grouping
 * for pdf.js's text runs and poppler's words keeps the stored text of both engines alike.
 */

/** Runs closer than this fraction of the font size are parts of one word. */
const WORD_GAP = 0.15;

/** Runs sharing at least this fraction of the smaller one's height are on one line. */
const LINE_OVERLAP = 0.5;

/** A run of text in PDF points, origin top-left, y downwards; `baseline` is its bottom edge. */
export interface TextRun extends PositionedText {
  baseline: number;
}

interface Line {
  top: number;
  bottom: number;
  runs: TextRun[];
}

function overlapsLine(line: Line, run: TextRun): boolean {
  const shared = Math.min(line.bottom, run.baseline) - Math.max(line.top, run.y);
  return shared >= LINE_OVERLAP * Math.min(line.bottom - line.top, run.height);
}

/**
 * Runs grouped into lines by their baseline. The content stream's order is kept from one
 * line to the next (it is the reading order of most generators, and keeps two columns of
 * prose apart); within a line, runs are read left to right, so table cells drawn in any
 * order land in one row.
 */
function linesOf(runs: TextRun[]): Line[] {
  const lines: Line[] = [];
  for (const run of runs) {
    const line = lines.at(-1);
    if (line && overlapsLine(line, run)) {
      line.runs.push(run);
      line.top = Math.min(line.top, run.y);
      line.bottom = Math.max(line.bottom, run.baseline);
    } else lines.push({ top: run.y, bottom: run.baseline, runs: [run] });
  }
  return lines;
}

/**
 * A line's runs left to right. pdf.js's runs may be pieces of a word, so a space goes only
 * where there is a gap; poppler's are whole words (`wholeWords`), so a space goes between
 * any two.
 */
function lineText(line: Line, wholeWords: boolean): string {
  const runs = [...line.runs].sort((a, b) => a.x - b.x);
  let text = '';
  let end = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    const apart = wholeWords || run.x - end > WORD_GAP * run.height;
    if (text !== '' && apart && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x + run.width);
  }
  return text.trim();
}

/** The runs as lines of text, one per line, without empty lines. */
export function textOfRuns(runs: TextRun[], options: { wholeWords: boolean }): string {
  return linesOf(runs)
    .map((line) => lineText(line, options.wholeWords))
    .filter((line) => line !== '')
    .join('\n');
}

/** The run as a stored item, clipped to the page box. */
export function insidePage(run: TextRun, page: { width: number; height: number }): PositionedText {
  const x = Math.min(Math.max(0, run.x), page.width);
  const y = Math.min(Math.max(0, run.y), page.height);
  return {
    text: run.text,
    x,
    y,
    width: Math.max(0, Math.min(run.x + run.width, page.width) - x),
    height: Math.max(0, Math.min(run.baseline, page.height) - y),
  };
}
