import type { PdfPageViewport, PdfTextItem } from './pdf-document.ts';
import { insidePage, type TextRun, textOfRuns } from './pdf-text-lines.ts';
import type { PositionedText } from './types.ts';

/** A page whose text layer has fewer visible characters than this is treated as a scan. */
const MIN_TEXT_LAYER_CHARACTERS = 16;

/** Text runs with their boxes, origin top-left and y downwards, in PDF points. */
function runsOf(items: PdfTextItem[], viewport: PdfPageViewport): TextRun[] {
  const runs: TextRun[] = [];
  for (const item of items) {
    if (!item.str || item.str.trim() === '') continue;
    const [x = 0, baseline = 0] = viewport.convertToViewportPoint(item.transform[4]!, item.transform[5]!);
    runs.push({ text: item.str, x, y: baseline - item.height, width: item.width, height: item.height, baseline });
  }
  return runs;
}

/** A page's text layer (pdf.js) as lines of text, and its runs as positioned items inside the page box. */
export function readTextLayer(items: PdfTextItem[], viewport: PdfPageViewport): { text: string; items: PositionedText[] } {
  const runs = runsOf(items, viewport);
  return { text: textOfRuns(runs, { wholeWords: false }), items: runs.map((run) => insidePage(run, viewport)) };
}

/** True when the page has too little text to be anything but a scan or a picture. */
export function needsOcr(text: string): boolean {
  return text.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARACTERS;
}
