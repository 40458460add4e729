import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KB at a time (as crypto.randomUUID does): one call per 512 ids, not per id. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex8(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 8;
  return pool.toString('hex', used - 8, used);
}

/**
 * A 24-hex-character id: 4 bytes of seconds since the epoch, then 8 random bytes.
 * Same shape as the ObjectIds DocRouter clients already handle, and roughly time-ordered.
 */
export function newId(): string {
  const time = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return time + randomHex8();
}

const ID = /^[0-9a-f]{24}$/;

/** Whether `value` has the shape `newId` makes; anything else names nothing of ours. */
export const isId = (value: string): boolean => ID.test(value);
