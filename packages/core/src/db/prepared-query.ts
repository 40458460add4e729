import type { Db } from './database.ts';

let statements = 0;
let naming = true;

/**
 * Whether the statements below are named, for the whole process (openDatabase sets it from the
 * database target). A pooler that hands a connection's statements to whichever server connection
 * is free (PgBouncer in transaction mode before 1.21, or with max_prepared_statements at 0) loses
 * named ones; there they go unnamed, parsed and planned at every call as before.
 */
export function nameStatements(enabled: boolean): void {
  naming = enabled;
}

/**
 * A statement that a hot path sends again and again in the same shape, built by drizzle once per
 * database, with `sql.placeholder`s where its values go, and run with values after. Building is
 * the caller's CPU: the agent's permission-rules read took 190 to 310 µs of it built at each call,
 * 86 to 107 µs built once (BENCHMARKS.md, "Eleventh session").
 *
 * It is also a named statement: each connection parses it once, and PostgreSQL plans it once it
 * has seen that a generic plan does as well, where the unnamed statement is parsed and planned at
 * every call (the rules read: 0.40 ms of the database's time a call, 0.11 ms named; BENCHMARKS.md,
 * "Twelfth session"). The embedded database's clients share one session, so its session server
 * gives each client's names a prefix of its own (statement-names.ts). A transaction is a database
 * of its own here, so a statement in one is built for it.
 */
export function preparedPerDatabase<P>(build: (db: Db) => { prepare(name: string): P }): (db: Db) => P {
  const built = new WeakMap<Db, P>();
  const name = `docagent_${++statements}`;
  return (db) => {
    let query = built.get(db);
    if (query === undefined) {
      query = build(db).prepare(naming ? name : '');
      built.set(db, query);
    }
    return query;
  };
}
