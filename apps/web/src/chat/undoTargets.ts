import type { ChatItem } from './chatItems';

/**
 * The cards that offer Undo: of each turn this page followed, the last write it applied, when that
 * write's tool can be undone (the server decides again, and says why not). A turn whose last write
 * is a create or a delete offers none: undo takes back only the last one.
 */
export function undoTargets(items: ChatItem[], writeTools: readonly string[], undoable: readonly string[]): Set<string> {
  const writes = new Set(writeTools);
  const lastWrite = new Map<string, { callId: string; name: string }>();
  for (const item of items) {
    if (item.kind === 'tool' && item.turnId !== undefined && item.status === 'done' && writes.has(item.name)) {
      lastWrite.set(item.turnId, { callId: item.callId, name: item.name });
    }
  }
  const can = new Set(undoable);
  return new Set([...lastWrite.values()].filter((write) => can.has(write.name)).map((write) => write.callId));
}
