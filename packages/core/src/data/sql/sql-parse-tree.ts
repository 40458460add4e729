import { foldName } from './sql-identifiers.ts';

/**
 * What a SELECT's parse tree (DuckDB's `json_serialize_sql`) may reference. The walk is
 * generic: every object of the tree is visited, whatever node kind holds it (joins,
 * subqueries in any clause, PIVOT sources, table-function arguments...), so a node kind this
 * code has never heard of cannot hide a table or a function from it. Reading outside the
 * dataset takes one of three shapes in the tree: a table reference (a name DuckDB would
 * resolve by a replacement scan, `FROM 'file.csv'`, or another catalog's table), a table
 * function (`read_csv(...)`), or a function call (`getenv(...)`).
 */

/** Table functions that only compute rows from their arguments. */
export const ALLOWED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set([
  'range',
  'generate_series',
  'unnest',
  'json_each',
  'json_tree',
]);

/**
 * Catalog views a query may read: they list the dataset's own tables and columns. The
 * duckdb_* functions are not among them: duckdb_settings() and duckdb_views() show the
 * server's file paths.
 */
const ALLOWED_CATALOG_VIEWS: ReadonlySet<string> = new Set(['tables', 'columns']);

/**
 * Functions refused wherever they appear: the ones that read files, URLs, the environment or
 * the settings (current_setting('allowed_paths') names the server's files), and the ones that
 * run SQL given as a string, which the parse tree cannot see into.
 */
const REFUSED_FUNCTIONS: ReadonlySet<string> = new Set([
  'getenv',
  'current_setting',
  'glob',
  'sniff_csv',
  'query',
  'query_table',
  'json_execute_serialized_sql',
  'which_secret',
  'sql_auto_complete',
  'checkpoint',
  'force_checkpoint',
  'truncate_duckdb_logs',
]);
const REFUSED_FUNCTION_PREFIXES =
  /^(read_|parquet_|iceberg_|delta_|postgres_|sqlite_|mysql_|st_read|duckdb_|pragma_|enable_|disable_)/;

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const looksLikeFile = (name: string) => /[/\\.:~]/.test(name);

function checkTableReference(node: Node, tables: ReadonlySet<string>, ctes: ReadonlySet<string>): string | null {
  const catalog = foldName(text(node.catalog_name));
  const schema = foldName(text(node.schema_name));
  const name = foldName(text(node.table_name));
  const inMemoryCatalog = catalog === '' || catalog === 'memory';
  if (catalog === '' && schema === '' && ctes.has(name)) return null;
  if (inMemoryCatalog && (schema === '' || schema === 'main') && tables.has(name)) return null;
  if (inMemoryCatalog && schema === 'information_schema' && ALLOWED_CATALOG_VIEWS.has(name)) return null;
  const shown = [catalog, schema, text(node.table_name)].filter(Boolean).join('.');
  if (looksLikeFile(text(node.table_name))) return `"${shown}" is a file or URL, and queries may not read files`;
  const known = tables.size > 0 ? [...tables].join(', ') : 'none';
  return `"${shown}" is not one of the dataset's tables (${known})`;
}

function checkFunction(name: string): string | null {
  const folded = foldName(name);
  if (REFUSED_FUNCTIONS.has(folded) || REFUSED_FUNCTION_PREFIXES.test(folded)) {
    return `the function ${name}() reads files, URLs, the environment or settings, or runs SQL from a string`;
  }
  return null;
}

function checkTableFunction(node: Node): string | null {
  const fn = isNode(node.function) ? node.function : {};
  const name = text(fn.function_name);
  if (ALLOWED_TABLE_FUNCTIONS.has(foldName(name))) return null;
  return `the table function ${name}() is not allowed (only ${[...ALLOWED_TABLE_FUNCTIONS].join(', ')} are)`;
}

/** SHOW TABLES and DESCRIBE/SUMMARIZE of a query (whose tables the walk checks) are fine; other SHOWs are not. */
function checkShow(node: Node): string | null {
  if (node.query !== null && node.query !== undefined) return null;
  if (text(node.table_name) === '"tables"') return null;
  return `SHOW ${text(node.table_name).replaceAll('"', '')} is not allowed (SHOW TABLES and DESCRIBE are)`;
}

function checkNode(node: Node, tables: ReadonlySet<string>, ctes: ReadonlySet<string>): string | null {
  switch (node.type) {
    case 'BASE_TABLE':
      return checkTableReference(node, tables, ctes);
    case 'TABLE_FUNCTION':
      return checkTableFunction(node);
    case 'SHOW_REF':
      return checkShow(node);
  }
  return typeof node.function_name === 'string' ? checkFunction(node.function_name) : null;
}

/**
 * The names of a node's common table expressions, in scope the way DuckDB binds them: each
 * definition sees the ones before it (and itself when recursive), the query body sees all.
 * A name in scope only inside a subquery does not cover a `FROM '/etc/passwd'` outside it.
 */
function visitCtes(
  node: Node,
  tables: ReadonlySet<string>,
  outer: ReadonlySet<string>,
): { scope: ReadonlySet<string>; violation: string | null } {
  const entries = isNode(node.cte_map) && Array.isArray(node.cte_map.map) ? node.cte_map.map : [];
  const scope = new Set(outer);
  for (const entry of entries) {
    if (!isNode(entry)) continue;
    const name = foldName(text(entry.key));
    const definition = isNode(entry.value) ? entry.value : {};
    const query = isNode(definition.query) && isNode(definition.query.node) ? definition.query.node : {};
    const recursive = query.type === 'RECURSIVE_CTE_NODE';
    const violation = visit(definition, tables, recursive ? new Set([...scope, name]) : new Set(scope));
    if (violation) return { scope, violation };
    scope.add(name);
  }
  return { scope, violation: null };
}

function visit(value: unknown, tables: ReadonlySet<string>, ctes: ReadonlySet<string>): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const violation = visit(item, tables, ctes);
      if (violation) return violation;
    }
    return null;
  }
  if (!isNode(value)) return null;
  const { scope, violation } = visitCtes(value, tables, ctes);
  if (violation) return violation;
  const own = checkNode(value, tables, scope);
  if (own) return own;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'cte_map') continue;
    const found = visit(child, tables, scope);
    if (found) return found;
  }
  return null;
}

/** The first thing the parse tree reaches outside the dataset, said for the query's author; null when there is none. */
export function findOutsideReference(tree: unknown, tableNames: readonly string[]): string | null {
  return visit(tree, new Set(tableNames.map(foldName)), new Set());
}
