/** Quoting for the SQL we write ourselves (views, settings, compiled query plans). */

/** A DuckDB identifier in double quotes, embedded quotes doubled: any text is then one name. */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** A DuckDB string literal, embedded single quotes doubled (DuckDB gives backslashes no meaning in them). */
export const quoteLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * DuckDB folds only ASCII letters when it matches names case-insensitively; folding the way
 * JavaScript's toLowerCase does (the Kelvin sign to "k", for one) would let the policy match
 * a name that DuckDB then resolves as something else.
 */
export const foldName = (name: string): string => name.replace(/[A-Z]/g, (c) => c.toLowerCase());
