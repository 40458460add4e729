import type { PdfPageViewport, PdfTextItem } from './pdf-document.ts';
import type { PositionedText } from './types.ts';

/** A page whose text layer has fewer visible characters than this is treated as a scan. */
const MIN_TEXT_LAYER_CHARACTERS = 16;

/** Runs closer than this fraction of the font size are parts of one word. */
const WORD_GAP = 0.15;

/** Runs sharing at least this fraction of the smaller one's height are on one line. */
const LINE_OVERLAP = 0.5;

interface Run extends PositionedText {
  baseline: number;
}

interface Line {
  top: number;
  bottom: number;
  runs: Run[];
}

/** Text runs with their boxes, origin top-left and y downwards, in PDF points. */
function runsOf(items: PdfTextItem[], viewport: PdfPageViewport): Run[] {
  const runs: Run[] = [];
  for (const item of items) {
    if (!item.str || item.str.trim() === '') continue;
    const [x = 0, baseline = 0] = viewport.convertToViewportPoint(item.transform[4]!, item.transform[5]!);
    runs.push({ text: item.str, x, y: baseline - item.height, width: item.width, height: item.height, baseline });
  }
  return runs;
}

function overlapsLine(line: Line, run: Run): boolean {
  const shared = Math.min(line.bottom, run.baseline) - Math.max(line.top, run.y);
  return shared >= LINE_OVERLAP * Math.min(line.bottom - line.top, run.height);
}

/**
 * Runs grouped into lines by their baseline. The content stream's order is kept from one
 * line to the next (it is the reading order of most generators, and keeps two columns of
 * prose apart); within a line, runs are read left to right, so table cells drawn in any
 * order land in one row.
 */
function linesOf(runs: Run[]): Line[] {
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

function lineText(line: Line): string {
  const runs = [...line.runs].sort((a, b) => a.x - b.x);
  let text = '';
  let end = Number.NEGATIVE_INFINITY;
  for (const run of runs) {
    const gap = run.x - end;
    if (text !== '' && gap > WORD_GAP * run.height && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x + run.width);
  }
  return text.trim();
}

function insidePage(run: Run, viewport: PdfPageViewport): PositionedText {
  const x = Math.min(Math.max(0, run.x), viewport.width);
  const y = Math.min(Math.max(0, run.y), viewport.height);
  return {
    text: run.text,
    x,
    y,
    width: Math.max(0, Math.min(run.x + run.width, viewport.width) - x),
    height: Math.max(0, Math.min(run.baseline, viewport.height) - y),
  };
}

/** A page's text layer as lines of text, and its runs as positioned items inside the page box. */
export function readTextLayer(items: PdfTextItem[], viewport: PdfPageViewport): { text: string; items: PositionedText[] } {
  const runs = runsOf(items, viewport);
  const text = linesOf(runs)
    .map(lineText)
    .filter((line) => line !== '')
    .join('\n');
  return { text, items: runs.map((run) => insidePage(run, viewport)) };
}

/** True when the page has too little text to be anything but a scan or a picture. */
export function needsOcr(text: string): boolean {
  return text.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARACTERS;
}
