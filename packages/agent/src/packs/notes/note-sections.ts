/**
 * A Markdown note's sections, so that a note too long for one model call is read and rewritten a
 * section at a time. A section runs from its heading to the next heading of the same or a higher
 * level; headings inside fenced code blocks are text.
 */
export interface NoteSection {
  heading: string;
  level: number;
  start: number;
  end: number;
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^\s*(```|~~~)/;

export function sectionsOf(content: string): NoteSection[] {
  const found: Array<Omit<NoteSection, 'end'>> = [];
  let inFence = false;
  let offset = 0;
  for (const line of content.split('\n')) {
    if (FENCE.test(line)) inFence = !inFence;
    const match = inFence ? null : HEADING.exec(line);
    if (match) found.push({ heading: (match[2] as string).trim(), level: (match[1] as string).length, start: offset });
    offset += line.length + 1;
  }
  return found.map((section, i) => {
    const next = found.slice(i + 1).find((s) => s.level <= section.level);
    return { ...section, end: next ? next.start : content.length };
  });
}

/** The section with this heading (case and surrounding `#` ignored), or null. */
export function findSection(content: string, heading: string): NoteSection | null {
  const wanted = normalise(heading.replace(/^#+\s*/, ''));
  return sectionsOf(content).find((s) => normalise(s.heading) === wanted) ?? null;
}

/** The headings, for a message that asks the model to pick one. */
export function headingList(content: string, max = 40): string {
  const sections = sectionsOf(content);
  if (sections.length === 0) return 'the note has no headings';
  const shown = sections.slice(0, max).map((s) => `${'#'.repeat(s.level)} ${s.heading} (${s.end - s.start} characters)`);
  return [...shown, ...(sections.length > max ? [`… ${sections.length - max} more`] : [])].join('; ');
}

const normalise = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
