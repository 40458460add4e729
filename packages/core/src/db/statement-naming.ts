import type pg from 'pg';

/** Statement texts named at most, per pool: each connection keeps a plan of each it ran. */
const MOST_NAMED = 500;
/** Texts seen once remembered at most, before that memory starts again. */
const MOST_SEEN = 5_000;

/**
 * Makes each statement with parameters that the pool's clients send a second time a named
 * statement, as postgres.js does by default: a connection then parses it once and PostgreSQL
 * plans it once it has seen that a generic plan does as well, where an unnamed statement is
 * parsed and planned at every call. A tool's read took the database 0.25 to 0.5 ms of parsing
 * and planning at every call (BENCHMARKS.md, "Twelfth session"). Only statements with
 * parameters: a parameterless text may hold several statements (a migration), which a named
 * statement cannot. The embedded database's session server keeps each client's names its own
 * (statement-names.ts). Not for a pooler that hands a connection's statements to whichever
 * server connection is free (DATABASE_NAMED_STATEMENTS=false).
 */
export function nameRepeatedStatements(pool: pg.Pool): void {
  const seen = new Set<string>();
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= MOST_NAMED) return known;
    if (!seen.has(text)) {
      if (seen.size >= MOST_SEEN) seen.clear();
      seen.add(text);
      return undefined;
    }
    seen.delete(text);
    const name = `docagent_${names.size + 1}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [config, values] = args;
      if (isUnnamedWithValues(config, values)) {
        const name = nameOf(config.text);
        if (name !== undefined) args[0] = { ...config, name };
      }
      return query(...args);
    }) as typeof client.query;
  });
}

/** A query config without a name whose values come in it or as `query`'s second argument (drizzle's way). */
function isUnnamedWithValues(config: unknown, values: unknown): config is { text: string; name?: string } {
  if (typeof config !== 'object' || config === null) return false;
  const given = config as { text?: unknown; values?: unknown; name?: unknown };
  const all = given.values ?? values;
  return typeof given.text === 'string' && Array.isArray(all) && all.length > 0 && !given.name;
}
