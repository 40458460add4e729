import type { Pack } from './pack.ts';
import { ReadOnce } from './read-once.ts';

/**
 * The packs' sections of a run's system message (the subject's context: a document with its
 * text and extraction results, a dataset's tables, a project's notes), read once per run of a
 * turn instead of at every step. What the turn's own calls change must show at the next step, so
 * a call that wrote drops them; a change made outside the turn (another person's edit, a
 * background extraction finishing) shows from the turn's next run on, and the tools read it now.
 */
export class SectionCache {
  private readonly sections = new ReadOnce<string>();
  /** The packs as the system message takes them, with their sections from here. */
  readonly packs: Pack[];

  constructor(packs: Pack[]) {
    this.packs = packs.map((pack) => ({ ...pack, section: (input) => this.sections.get(pack.name, () => pack.section(input)) }));
  }

  /** A call that may have changed data ran: the next step reads the subject again. */
  changed(): void {
    this.sections.clear();
  }
}
