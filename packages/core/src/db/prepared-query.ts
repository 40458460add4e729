import type { Db } from './database.ts';

/**
 * A statement that a hot path sends again and again in the same shape, built by drizzle once per
 * database, with `sql.placeholder`s where its values go, and run with values after. Building is
 * the caller's CPU: the agent's permission-rules read took 190 to 310 µs of it built at each call,
 * 86 to 107 µs built once (BENCHMARKS.md, "Eleventh session").
 *
 * `build` must end in `.prepare(UNNAMED)`: the embedded database's clients share one PostgreSQL
 * session, where one connection's named statement would collide with another connection's of the
 * same name. A transaction is a database of its own here, so a statement in one is built for it.
 */
export function preparedPerDatabase<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

/** The name of a prepared query that PostgreSQL keeps as its unnamed statement (see preparedPerDatabase). */
export const UNNAMED = '';
