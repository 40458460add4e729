/** A conversation as grouping needs it (free of imports for the node tests). */
interface Dated {
  updated_at: string;
}

export interface ThreadGroup<T extends Dated> {
  label: 'Today' | 'Yesterday' | 'This week' | 'Older';
  threads: T[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Conversations by when they last changed, in the person's time zone; the order within a group is kept. */
export function groupThreads<T extends Dated>(threads: T[], now: Date): ThreadGroup<T>[] {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const groups: ThreadGroup<T>[] = [
    { label: 'Today', threads: [] },
    { label: 'Yesterday', threads: [] },
    { label: 'This week', threads: [] },
    { label: 'Older', threads: [] },
  ];
  for (const thread of threads) {
    const at = new Date(thread.updated_at).getTime();
    const index = Number.isNaN(at) ? 3 : at >= today ? 0 : at >= today - DAY_MS ? 1 : at >= today - 6 * DAY_MS ? 2 : 3;
    groups[index]?.threads.push(thread);
  }
  return groups.filter((group) => group.threads.length > 0);
}
