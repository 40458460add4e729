import type { AnyColumn, SQL, SQLWrapper } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { StoredMessages } from './turn-state.ts';

/**
 * A json array column of `stored.stored` elements with its first `stored.valid` kept and `tail`
 * after them, each element's text as it was written (json keeps key order; see agent_turns). A
 * step sends only its new messages, not a long conversation back whole. Turns without a thread
 * and threads store their messages this way; `'all'` keeps every stored element (a thread's
 * messages from outside a turn).
 */
export function appendedMessages(column: AnyColumn, stored: StoredMessages | 'all', tail: unknown[]): SQL {
  const added = JSON.stringify(tail);
  if (stored !== 'all' && stored.valid === 0) return sql`${added}::json`;
  const kept = stored === 'all' || stored.valid === stored.stored ? sql`true` : sql`kept.i <= ${stored.valid}`;
  return keptAndAdded(column, kept, added);
}

/**
 * The column's elements for which `kept` holds (`kept.i` is an element's place, from 1) and the
 * elements of the json array `added` after them: appendedMessages, and a statement prepared once
 * (a step's commit), where what is kept and added are parameters.
 */
export function keptAndAdded(column: AnyColumn, kept: SQL, added: SQLWrapper | string): SQL {
  return sql`(select coalesce(json_agg(m.e order by m.part, m.i), '[]'::json) from (
      select 0 as part, kept.i, kept.e from json_array_elements(${column}) with ordinality as kept(e, i) where ${kept}
      union all
      select 1, added.i, added.e from json_array_elements(${added}::json) with ordinality as added(e, i)
    ) as m)`;
}
