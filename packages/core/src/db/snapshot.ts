import type { Db } from './database.ts';

/**
 * Reads that must agree with each other, a page and its total, taken on one read-only snapshot.
 * Read apart on two pooled connections, a row committed between them answered "0 of 1" or a total
 * of 10,001 beside a page without the newest row, and a screen that saw nothing busy never asked again.
 */
export function inOneSnapshot<T>(db: Db, read: (snapshot: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => read(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
