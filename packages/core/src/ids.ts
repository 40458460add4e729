import { randomBytes } from 'node:crypto';

/**
 * A 24-hex-character id: 4 bytes of seconds since the epoch, then 8 random bytes.
 * Same shape as the ObjectIds DocRouter clients already handle, and roughly time-ordered.
 */
export function newId(): string {
  const time = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return time + randomBytes(8).toString('hex');
}

const ID = /^[0-9a-f]{24}$/;

/** Whether `value` has the shape `newId` makes; anything else names nothing of ours. */
export const isId = (value: string): boolean => ID.test(value);
