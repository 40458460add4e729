/** An item on screen as placing notices needs it (as chatItems' ChatItem; free of imports for the node tests). */
interface Item {
  kind: string;
  key: string;
}

/**
 * A notice the panel showed in a conversation ("Stopped.") that the stored thread does not keep,
 * placed by how many of the person's messages came before it.
 */
export interface PlacedNotice<T extends Item> {
  notice: T;
  afterUserMessages: number;
}

/** The notices on screen, with their places, to show again when the conversation is opened again. */
export function noticesOf<T extends Item>(items: T[]): PlacedNotice<T>[] {
  const placed: PlacedNotice<T>[] = [];
  let users = 0;
  for (const item of items) {
    if (item.kind === 'user') users += 1;
    else if (item.kind === 'notice') placed.push({ notice: item, afterUserMessages: users });
  }
  return placed;
}

/**
 * The stored conversation's items with the notices put back: each right before the next of the
 * person's messages after its place (the end of that turn), or at the end.
 */
export function withNotices<T extends Item>(items: T[], notices: PlacedNotice<T>[]): T[] {
  const pending = [...notices].sort((a, b) => a.afterUserMessages - b.afterUserMessages);
  const result: T[] = [];
  let users = 0;
  for (const item of items) {
    if (item.kind === 'user') {
      while (pending.length > 0 && (pending[0] as PlacedNotice<T>).afterUserMessages <= users) {
        result.push((pending.shift() as PlacedNotice<T>).notice);
      }
      users += 1;
    }
    result.push(item);
  }
  return [...result, ...pending.map((placed) => placed.notice)];
}
