import type { Db } from './database.ts';

/**
 * A statement that a hot path sends again and again in the same shape, built by drizzle once per
 * database, with `sql.placeholder`s where its values go, and run with values after. Building is
 * the caller's CPU: the agent's permission-rules read took 190 to 310 µs of it built at each call,
 * 86 to 107 µs built once (BENCHMARKS.md, "Eleventh session"). The pool makes it a named
 * statement, as every repeated one (statement-naming.ts). A transaction is a database of its own
 * here, so a statement in one is built for it.
 */
export function preparedPerDatabase<P>(build: (db: Db) => { prepare(name: string): P }): (db: Db) => P {
  const built = new WeakMap<Db, P>();
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db).prepare('');
      built.set(db, query);
    }
    return query;
  };
}
