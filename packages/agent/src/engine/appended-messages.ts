import type { AnyColumn, SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { StoredMessages } from './turn-state.ts';

/**
 * A JSON array column of `stored.stored` elements with its first `stored.valid` kept and `tail`
 * after them: a plain append when nothing stored changed, so a step does not send a long
 * conversation back whole. Turns without a thread and threads store their messages this way.
 */
export function appendedMessages(column: AnyColumn, stored: StoredMessages, tail: unknown[]): SQL {
  const added = sql`${JSON.stringify(tail)}::jsonb`;
  if (stored.valid === stored.stored) return sql`${column} || ${added}`;
  if (stored.valid === 0) return added;
  return sql`jsonb_path_query_array(${column}, ${`$[0 to ${stored.valid - 1}]`}::jsonpath) || ${added}`;
}
